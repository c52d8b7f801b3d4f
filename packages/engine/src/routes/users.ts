import { access } from '../auth/roles.ts';
import type { UserInput } from '../auth/user-directory.ts';
import { requireSelfOrAdmin } from '../http/access-control.ts';
import type { RouteModule } from './route-module.ts';
import { listOf, newUserBody, noContent, user, usernameParams, userUpdateBody } from '@weir/contract';

const users = listOf(user);

type ByName = { Params: { username: string } };

/** Spec: Users. A `user` may read and update (not re-role) their own record; the rest is admin only. */
export const userRoutes: RouteModule = (app, ctx) => {
  app.get('/api/users', { config: { access: access.admin }, schema: { response: { 200: users } } }, async () =>
    ctx.users.list(),
  );

  app.post(
    '/api/users',
    { config: { access: access.admin }, schema: { body: newUserBody, response: { 201: user } } },
    async (request, reply) => {
      const user = await ctx.users.create(request.body as UserInput);
      return reply.code(201).header('location', '/api/users').send(user);
    },
  );

  app.get<ByName>(
    '/api/users/:username',
    { config: { access: access.member }, schema: { params: usernameParams, response: { 200: user } } },
    async (request) => {
      requireSelfOrAdmin(request, request.params.username);
      return ctx.users.get(request.params.username);
    },
  );

  app.put<ByName>(
    '/api/users/:username',
    {
      config: { access: access.member },
      schema: { params: usernameParams, body: userUpdateBody, response: { 200: user } },
    },
    async (request) => {
      requireSelfOrAdmin(request, request.params.username);
      return ctx.users.update(request.params.username, request.body as UserInput, request.principal);
    },
  );

  app.delete<ByName>(
    '/api/users/:username',
    { config: { access: access.admin }, schema: { params: usernameParams, response: { 204: noContent } } },
    async (request, reply) => {
      await ctx.users.delete(request.params.username, request.principal);
      return reply.code(204).send();
    },
  );
};
