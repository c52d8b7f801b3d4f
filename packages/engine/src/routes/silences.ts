import { access } from '../auth/roles.ts';
import { Silences } from '../silences/silences.ts';
import type { RouteModule } from './route-module.ts';
import {
  idParams,
  listOf,
  silence,
  silenceBody,
  silenceListQuery,
  type SilenceListQuery,
  type SilenceRequest,
} from '@weir/contract';

const silenceList = listOf(silence);

type ById = { Params: { id: string } };

/**
 * Silences (docs/alerts.md, "Silences"): every signed-in user reads, creates, edits and expires
 * them (an analyst silences a noisy rule; each write is audited with who did it). There is no
 * DELETE: a silence is expired, and stays readable, as in Alertmanager.
 */
export const silenceRoutes: RouteModule = (app, ctx) => {
  const silences = new Silences(ctx.store);

  app.get<{ Querystring: SilenceListQuery }>(
    '/api/silences',
    { config: { access: access.member }, schema: { querystring: silenceListQuery, response: { 200: silenceList } } },
    async (request) => silences.list(request.query.state),
  );

  app.get<ById>(
    '/api/silences/:id',
    { config: { access: access.member }, schema: { params: idParams, response: { 200: silence } } },
    async (request) => silences.get(request.params.id),
  );

  app.post<{ Body: SilenceRequest }>(
    '/api/silences',
    { config: { access: access.member }, schema: { body: silenceBody, response: { 201: silence } } },
    async (request, reply) => {
      const created = await silences.create(request.body, request.principal.username);
      return reply.code(201).header('location', `/api/silences/${created.id}`).send(created);
    },
  );

  app.put<ById & { Body: SilenceRequest }>(
    '/api/silences/:id',
    {
      config: { access: access.member },
      schema: { params: idParams, body: silenceBody, response: { 200: silence } },
    },
    async (request) => silences.update(request.params.id, request.body, request.principal.username),
  );

  app.post<ById>(
    '/api/silences/:id/expire',
    { config: { access: access.member }, schema: { params: idParams, response: { 200: silence } } },
    async (request) => silences.expire(request.params.id, request.principal.username),
  );
};
