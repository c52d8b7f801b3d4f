import { access } from '../auth/roles.ts';
import { apiError } from '../core/errors.ts';
import type { AuditRecord } from '../store/config-store.ts';
import type { RouteModule } from './route-module.ts';
import { auditPage, auditQuery, type AuditQuery } from '@weir/contract';
import { queryInstant } from '../core/instant.ts';

type AuditParams = { Querystring: AuditQuery };

const maxLimit = 1000;

const shown = (e: AuditRecord) => ({ ...e, time: new Date(e.time).toISOString() });

/**
 * `GET /api/audit` (admin): the audit trail, newest first, filtered by `user`, `kind`, `id` and the
 * time range `from`..`to` (inclusive), paged by `offset` and `limit` (default 100, at most 1000).
 */
export const auditRoutes: RouteModule = (app, ctx) => {
  app.get<AuditParams>(
    '/api/audit',
    { config: { access: access.admin }, schema: { querystring: auditQuery, response: { 200: auditPage } } },
    async (request) => {
      const q = request.query;
      // Integers, checked by auditQuery; the limit's range is worded here, as the API always has.
      const limit = q.limit ?? 100;
      if (limit < 1 || limit > maxLimit)
        throw apiError('VALIDATION', `query.limit must be from 1 to ${maxLimit}; got ${limit}`);
      const offset = q.offset ?? 0;
      const page = ctx.store.queryAudit({
        user: q.user,
        kind: q.kind,
        id: q.id,
        from: queryInstant('from', q.from),
        to: queryInstant('to', q.to),
        offset,
        limit,
      });
      return { total: page.total, offset, limit, entries: page.entries.map(shown) };
    },
  );
};
