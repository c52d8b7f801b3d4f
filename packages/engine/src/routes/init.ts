import { access } from '../auth/roles.ts';
import type { UserInput } from '../auth/user-directory.ts';
import type { RouteModule } from './route-module.ts';
import { initialized, newUserBody, user } from '@weir/contract';

/** Spec: Init (no credentials). The first user is always an admin. */
export const initRoutes: RouteModule = (app, ctx) => {
  app.get('/api/init', { config: { access: access.public }, schema: { response: { 200: initialized } } }, async () => ({
    initialized: ctx.users.initialized,
  }));

  app.post(
    '/api/init',
    { config: { access: access.public }, schema: { body: newUserBody, response: { 201: user } } },
    async (request, reply) => {
      const user = await ctx.users.init(request.body as UserInput);
      return reply.code(201).header('location', '/api/users').send(user);
    },
  );
};
