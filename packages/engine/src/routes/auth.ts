import { access } from '../auth/roles.ts';
import type { RouteModule } from './route-module.ts';
import { apiError } from '../errors.ts';
import { loginBody } from './user-schemas.ts';

/** Spec: Authentication. Login failures answer 401 with an empty body; refresh failures 401 + ERROR. */
export const authRoutes: RouteModule = (app, ctx) => {
  app.post('/api/login', { config: { access: access.public }, schema: { body: loginBody } }, async (request, reply) => {
    const { username, password } = request.body as { username: string; password: string };
    const wait = ctx.loginLimiter.blockedFor(username, request.ip);
    if (wait > 0) throw apiError('LOGIN_RATE_LIMITED', wait);
    const user = await ctx.users.authenticate(username, password);
    if (!user) {
      ctx.loginLimiter.fail(username, request.ip);
      return reply.code(401).send();
    }
    ctx.loginLimiter.succeed(username, request.ip);
    return ctx.tokens.issue(user.username);
  });

  app.get('/api/token/refresh', { config: { access: access.public } }, async (request, reply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const username = match ? await ctx.tokens.verify(match[1]!, 'refresh') : undefined;
    const user = username === undefined ? undefined : ctx.users.find(username);
    if (!user) {
      const text = match ? 'The refresh token is invalid or expired; log in again.' : 'Refresh token is missing: send Authorization: Bearer <REFRESH_TOKEN>.';
      return reply.code(401).header('error', text).send({ error_message: text });
    }
    return ctx.tokens.issue(user.username);
  });
};
