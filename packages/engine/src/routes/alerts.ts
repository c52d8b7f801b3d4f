import { access } from '../auth/roles.ts';
import type { RouteModule } from './route-module.ts';
import {
  alertBulkResult,
  alertBulkTriage,
  alertGroupQuery,
  alertGroups,
  alertListQuery,
  alertPage,
  alertParams,
  alertTriageChange,
  alertView,
  type AlertBulkTriage,
  type AlertGroupQuery,
  type AlertListQuery,
  type AlertTriageChange,
} from '@weir/contract';

/**
 * The alert store and triage (docs/alerts.md, "The alert store and triage"): this node's alert
 * index, read by every signed-in user; triage (status, resolution, assignee, notes) by every
 * signed-in user too, since the SOC analysts who triage have the `user` role; every change audited.
 * `GET /api/alerts/tail` (live.ts) is the live tail of the alerts topic.
 */
export const alertRoutes: RouteModule = (app, ctx) => {
  app.get<{ Querystring: AlertListQuery }>(
    '/api/alerts',
    { config: { access: access.member }, schema: { querystring: alertListQuery, response: { 200: alertPage } } },
    async (request) => ctx.alerts.list(request.query),
  );

  app.get<{ Querystring: AlertGroupQuery }>(
    '/api/alerts/groups',
    { config: { access: access.member }, schema: { querystring: alertGroupQuery, response: { 200: alertGroups } } },
    async (request) => ctx.alerts.groups(request.query),
  );

  app.post<{ Body: AlertBulkTriage }>(
    '/api/alerts/triage',
    { config: { access: access.member }, schema: { body: alertBulkTriage, response: { 200: alertBulkResult } } },
    async (request) => ({
      alerts: await ctx.alerts.bulkTriage(request.body.ids, request.body.change, request.principal.username),
    }),
  );

  app.get<{ Params: { id: string } }>(
    '/api/alerts/:id',
    { config: { access: access.member }, schema: { params: alertParams, response: { 200: alertView } } },
    async (request) => ctx.alerts.get(request.params.id),
  );

  app.patch<{ Params: { id: string }; Body: AlertTriageChange }>(
    '/api/alerts/:id',
    {
      config: { access: access.member },
      schema: { params: alertParams, body: alertTriageChange, response: { 200: alertView } },
    },
    async (request) => ctx.alerts.triage(request.params.id, request.body, request.principal.username),
  );
};
