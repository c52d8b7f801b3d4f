import { access } from '../auth/roles.ts';
import { silencesMatching } from '../silences/silence-match.ts';
import { storedSilences } from '../silences/stored-silences.ts';
import type { RouteModule } from './route-module.ts';
import type { SilencedTest } from '../alerts/alert-index.ts';
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
  type AlertView,
} from '@weir/contract';

/**
 * The alert store and triage (docs/alerts.md, "The alert store and triage"): this node's alert
 * index, read by every signed-in user; triage (status, resolution, assignee, notes) by every
 * signed-in user too, since the SOC analysts who triage have the `user` role; every change audited.
 * `GET /api/alerts/tail` (live.ts) is the live tail of the alerts topic.
 */
export const alertRoutes: RouteModule = (app, ctx) => {
  /**
   * Each alert with `silencedBy`: the silences matching its record that are active at its time or
   * now (an analyst's silence covers a burst that is still being triaged, as Alertmanager shows an
   * alert silenced while a silence holds it).
   */
  const readSilences = storedSilences(ctx.store);
  const withSilences = <T extends { alerts: AlertView[] } | AlertView>(answer: T): T => {
    const silences = readSilences();
    const now = Date.now();
    const mark = (a: AlertView): AlertView => {
      if (silences.length === 0) return { ...a, silencedBy: [] };
      const ids = new Set([
        ...silencesMatching(a.record, silences, a.time),
        ...silencesMatching(a.record, silences, now),
      ]);
      return { ...a, silencedBy: [...ids] };
    };
    return ('alerts' in answer ? { ...answer, alerts: answer.alerts.map(mark) } : mark(answer)) as T;
  };
  /** The `silenced` filter's test: silenced now as `silencedBy` says (at the alert's time or now). */
  const silencedTest = (): SilencedTest => {
    const silences = readSilences();
    const now = Date.now();
    return {
      any: silences.length > 0,
      test: (record, time) =>
        silencesMatching(record, silences, time).length > 0 || silencesMatching(record, silences, now).length > 0,
    };
  };

  app.get<{ Querystring: AlertListQuery }>(
    '/api/alerts',
    { config: { access: access.member }, schema: { querystring: alertListQuery, response: { 200: alertPage } } },
    async (request) => withSilences(ctx.alerts.list(request.query, silencedTest())),
  );

  app.get<{ Querystring: AlertGroupQuery }>(
    '/api/alerts/groups',
    { config: { access: access.member }, schema: { querystring: alertGroupQuery, response: { 200: alertGroups } } },
    async (request) => ctx.alerts.groups(request.query, silencedTest()),
  );

  app.post<{ Body: AlertBulkTriage }>(
    '/api/alerts/triage',
    { config: { access: access.member }, schema: { body: alertBulkTriage, response: { 200: alertBulkResult } } },
    async (request) =>
      withSilences({
        alerts: await ctx.alerts.bulkTriage(request.body.ids, request.body.change, request.principal.username),
      }),
  );

  app.get<{ Params: { id: string } }>(
    '/api/alerts/:id',
    { config: { access: access.member }, schema: { params: alertParams, response: { 200: alertView } } },
    async (request) => withSilences(ctx.alerts.get(request.params.id)),
  );

  app.patch<{ Params: { id: string }; Body: AlertTriageChange }>(
    '/api/alerts/:id',
    {
      config: { access: access.member },
      schema: { params: alertParams, body: alertTriageChange, response: { 200: alertView } },
    },
    async (request) =>
      withSilences(await ctx.alerts.triage(request.params.id, request.body, request.principal.username)),
  );
};
