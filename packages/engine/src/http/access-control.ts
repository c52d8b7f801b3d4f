import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { RouteAccess } from '../auth/roles.ts';
import type { User } from '../auth/user-directory.ts';
import { bearer, tokenUser } from '../auth/token-user.ts';
import { runAs } from '../audit/audit-context.ts';
import type { NodeContext } from './node-context.ts';
import { docsPrefix } from './openapi.ts';

/**
 * Authentication and authorisation of every route (spec: Authentication):
 * no `Authorization` header → 401, empty body, `WWW-Authenticate: Bearer`;
 * an invalid or expired access token, or a role the route does not allow → 403, empty body.
 */
export interface DeclaredRoute {
  readonly method: string;
  readonly url: string;
  readonly access: RouteAccess;
}

const declaredRoutes = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Every /api route of the app with the access it declares (the role-matrix test sweeps them). */
export function apiRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  return declaredRoutes.get(app) ?? [];
}

export function registerAccessControl(app: FastifyInstance, ctx: NodeContext): void {
  app.decorateRequest('principal', null as never);
  app.decorateRequest('loginSession', '');
  const routes: DeclaredRoute[] = [];
  declaredRoutes.set(app, routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api')) return;
    if (route.url.startsWith(docsPrefix) && route.config?.access === undefined) {
      // The Swagger UI plugin's routes (page, assets): public, like the OpenAPI document.
      route.config = { ...route.config, access: 'public' };
    }
    const access = route.config?.access;
    if (access === undefined)
      throw new Error(`route ${String(route.method)} ${route.url} declares no access (config.access)`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, access });
    // The handler runs with its caller as the actor of the audit entries of its writes.
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const actor = { user: (request.principal as User | null)?.username ?? null, address: request.ip };
      return runAs({ actor }, () => handler.call(this, request, reply));
    };
  });
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const access = request.routeOptions.config.access;
    if (access === undefined || access === 'public') return;
    const header = request.headers.authorization;
    if (!header) {
      return reply.code(401).header('www-authenticate', 'Bearer').send();
    }
    const token = bearer(header);
    const found = token === undefined ? undefined : await tokenUser(ctx.tokens, ctx.users, token, 'access');
    const user = found?.user;
    if (!user || !user.roles.some((r) => access.includes(r.name))) {
      return reply.code(403).send();
    }
    request.principal = user;
    // Tokens issued before login sessions existed carry no sid: the token itself is then the session.
    request.loginSession = found!.claims.sid || createHash('sha256').update(token!).digest('base64url');
  });
}

/** For `member` routes on a user record: a `user` may only reach their own. */
export function requireSelfOrAdmin(request: FastifyRequest, username: string): void {
  const p = request.principal;
  if (p.username !== username && !p.roles.some((r) => r.name === 'admin')) throw forbidden();
}

/** Thrown to answer 403 with no body. */
export function forbidden(): Error {
  return Object.assign(new Error('forbidden'), { statusCode: 403, [Symbol.for('weir.forbidden')]: true });
}

export function isForbidden(err: unknown): boolean {
  return (
    typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[Symbol.for('weir.forbidden')] === true
  );
}
