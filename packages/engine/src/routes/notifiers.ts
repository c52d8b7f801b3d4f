import { access } from '../auth/roles.ts';
import { Notifiers } from '../notify/notifiers.ts';
import type { RouteModule } from './route-module.ts';
import {
  idParams,
  listOf,
  newNotifierBody,
  noContent,
  notifierSchema,
  notifierUpdateBody,
  responseShape,
  type NewNotifier,
  type NotifierUpdate,
} from '@weir/contract';

type ById = { Params: { id: string } };

/**
 * Notifiers (docs/alerts.md, "Notifications"): admin only, reads included (a receiver's URL often
 * carries a token of its own, and the list says where alerts go). Every write is audited, without
 * the secret; no answer carries the secret.
 */
export const notifierRoutes: RouteModule = (app, ctx) => {
  const notifiers = new Notifiers(ctx.store);
  const config = { access: access.admin };
  const one = responseShape(notifierSchema);

  app.get('/api/notifiers', { config, schema: { response: { 200: listOf(notifierSchema) } } }, async () =>
    notifiers.list(),
  );

  app.get<ById>(
    '/api/notifiers/:id',
    { config, schema: { params: idParams, response: { 200: one } } },
    async (request) => notifiers.get(request.params.id),
  );

  app.post(
    '/api/notifiers',
    { config, schema: { body: newNotifierBody, response: { 201: one } } },
    async (request, reply) => {
      const created = await notifiers.create(request.body as NewNotifier);
      return reply.code(201).header('location', `/api/notifiers/${created.id}`).send(created);
    },
  );

  app.put<ById>(
    '/api/notifiers/:id',
    { config, schema: { params: idParams, body: notifierUpdateBody, response: { 200: one } } },
    async (request) => notifiers.update(request.params.id, request.body as NotifierUpdate),
  );

  app.delete<ById>(
    '/api/notifiers/:id',
    { config, schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      await notifiers.delete(request.params.id);
      return reply.code(204).send();
    },
  );
};
