import { access } from '../auth/roles.ts';
import type { RouteModule } from './route-module.ts';
import { idParams, listOf, node, noContent } from '@weir/contract';

const nodes = listOf(node);

type ById = { Params: { id: string } };

/** Spec: Nodes. Reading is open to `user`; deregistering is admin only. */
export const nodeRoutes: RouteModule = (app, ctx) => {
  app.get('/api/nodes', { config: { access: access.member }, schema: { response: { 200: nodes } } }, async () =>
    ctx.nodes.list(),
  );

  app.get<ById>(
    '/api/nodes/:id',
    { config: { access: access.member }, schema: { params: idParams, response: { 200: node } } },
    async (request) => ctx.nodes.get(request.params.id),
  );

  app.delete<ById>(
    '/api/nodes/:id',
    { config: { access: access.admin }, schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      await ctx.nodes.deregister(request.params.id);
      return reply.code(204).send();
    },
  );
};
