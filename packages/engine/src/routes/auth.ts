import { access } from '../auth/roles.ts';
import { bearer, tokenUser } from '../auth/token-user.ts';
import type { RouteModule } from './route-module.ts';
import { apiError } from '../core/errors.ts';
import { loginBody, noContent, refreshRefused, tokenPair } from '@weir/contract';

/**
 * Spec: Authentication. Login failures answer 401 with an empty body; refresh failures 401 + ERROR.
 * `POST /api/logout` (Weir's addition, docs/api.md) revokes the caller's login session.
 */
export const authRoutes: RouteModule = (app, ctx) => {
  app.post(
    '/api/login',
    { config: { access: access.public }, schema: { body: loginBody, response: { 200: tokenPair, 401: noContent } } },
    async (request, reply) => {
      const { username, password } = request.body as { username: string; password: string };
      const wait = ctx.loginLimiter.blockedFor(username, request.ip);
      if (wait > 0) {
        await ctx.store.record('login', 'failure', username, { detail: 'rate limited' });
        // The error handler keeps headers set before the throw: every 429 says when to come back.
        reply.header('retry-after', String(wait));
        throw apiError('LOGIN_RATE_LIMITED', wait);
      }
      const user = await ctx.users.authenticate(username, password);
      const session = user && ctx.users.session(user.username);
      if (!session) {
        ctx.loginLimiter.fail(username, request.ip);
        await ctx.store.record('login', 'failure', username, { detail: 'wrong username or password' });
        return reply.code(401).send();
      }
      ctx.loginLimiter.succeed(username, request.ip);
      // No unrecorded login: when the entry cannot be written the login fails (503).
      await ctx.store.record('login', 'success', session.user.username, { user: session.user.username });
      return ctx.tokens.issue(session.user.username, session.key);
    },
  );

  app.get(
    '/api/token/refresh',
    { config: { access: access.public }, schema: { response: { 200: tokenPair, 401: refreshRefused } } },
    async (request, reply) => {
      const token = bearer(request.headers.authorization);
      const found = token === undefined ? undefined : await tokenUser(ctx.tokens, ctx.users, token, 'refresh');
      if (!found) {
        const text =
          token !== undefined
            ? 'The refresh token is invalid or expired; log in again.'
            : 'Refresh token is missing: send Authorization: Bearer <REFRESH_TOKEN>.';
        return reply.code(401).header('error', text).send({ error_message: text });
      }
      return ctx.tokens.issue(found.user.username, found.claims.key, found.claims.sid);
    },
  );

  /**
   * Ends the caller's login session: the bearer may be the access or the refresh token of the
   * session. Its refresh token (and every one refreshed from the same login) and its access tokens
   * are refused from now on, on every node. No header → 401; an invalid token → 403; done → 204.
   */
  app.post(
    '/api/logout',
    { config: { access: access.public }, schema: { response: { 204: noContent, 401: noContent, 403: noContent } } },
    async (request, reply) => {
      const header = request.headers.authorization;
      if (!header) return reply.code(401).header('www-authenticate', 'Bearer').send();
      const token = bearer(header);
      const found =
        token === undefined
          ? undefined
          : ((await tokenUser(ctx.tokens, ctx.users, token, 'access')) ??
            (await tokenUser(ctx.tokens, ctx.users, token, 'refresh')));
      if (!found) return reply.code(403).send();
      await ctx.tokens.revoke(found.claims.sid);
      await ctx.store.record('session', 'logout', found.user.username, { user: found.user.username });
      return reply.code(204).send();
    },
  );
};
