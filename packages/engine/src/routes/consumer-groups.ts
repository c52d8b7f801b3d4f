import {
  consumerGroupDetail,
  consumerGroupList,
  consumerGroupParams,
  lagHistory,
  noContent,
  resetOffsetsBody,
  resetOffsetsResult,
  type ResetOffsetsRequest,
} from '@weir/contract';
import { access } from '../auth/roles.ts';
import { apiError } from '../core/errors.ts';
import { brokerErrorId, brokerReason, unavailableOr } from '../kafka/broker-errors.ts';
import { GroupRefusal, type ResetTarget } from '../kafka/consumer-groups.ts';
import type { StoredTopology } from '../resources/topology.ts';
import { consumerGroupId } from '../stream/stream-engine.ts';
import type { NodeContext } from '../http/node-context.ts';
import type { RouteModule } from './route-module.ts';
import { auditedChange } from './topics.ts';

type ById = { Params: { id: string } };

/** Weir's topologies consuming as `groupId` (stream-engine.ts: one consumer group per node group). */
function topologiesOf(ctx: NodeContext, groupId: string): { id: number; name: string }[] {
  const applicationId = ctx.settings.get('weir.application.id');
  return ctx.store
    .list<StoredTopology>('topologies')
    .filter((t) => consumerGroupId(applicationId, t.group) === groupId)
    .map((t) => ({ id: t.id, name: t.name }))
    .sort((a, b) => a.id - b.id);
}

/**
 * Consumer groups (issue 23; docs/api.md → Consumer groups): list, detail, lag history, offset
 * reset and deletion. Reading is open to every user; reset and delete are admin only, audited
 * (kind `consumer-group`) and refused while the group has members.
 */
export const consumerGroupRoutes: RouteModule = (app, ctx) => {
  const kafka = ctx.topics;
  const withKafka = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof GroupRefusal) throw apiError('GROUP_REFUSED', err.message);
      if (brokerErrorId(err) !== undefined) throw apiError('GROUP_REFUSED', brokerReason(err));
      throw unavailableOr(err, kafka.bootstrap);
    }
  };

  app.get(
    '/api/consumer-groups',
    { config: { access: access.member }, schema: { response: { 200: consumerGroupList } } },
    async () =>
      (await withKafka(() => kafka.groups.list())).map((g) => ({ ...g, topologies: topologiesOf(ctx, g.id) })),
  );

  app.get<ById>(
    '/api/consumer-groups/:id',
    {
      config: { access: access.member },
      schema: { params: consumerGroupParams, response: { 200: consumerGroupDetail } },
    },
    async (request) => {
      const group = await withKafka(() => kafka.groups.describe(request.params.id));
      if (!group) throw apiError('GROUP_MISSING');
      return { ...group, topologies: topologiesOf(ctx, group.id) };
    },
  );

  app.get<ById>(
    '/api/consumer-groups/:id/lag-history',
    { config: { access: access.member }, schema: { params: consumerGroupParams, response: { 200: lagHistory } } },
    async (request) => {
      const { id } = request.params;
      const samples = ctx.lagHistory.history(id);
      if (samples.length === 0 && !(await withKafka(() => kafka.groups.describe(id)))) throw apiError('GROUP_MISSING');
      const { intervalMs, keepMs } = ctx.lagHistory.options;
      return {
        id,
        sampleSeconds: intervalMs / 1000,
        keepMinutes: keepMs / 60_000,
        samples: samples.map((s) => ({ time: new Date(s.time).toISOString(), lag: s.lag, partitions: s.partitions })),
      };
    },
  );

  app.post<ById>(
    '/api/consumer-groups/:id/reset-offsets',
    {
      config: { access: access.admin },
      schema: { params: consumerGroupParams, body: resetOffsetsBody, response: { 200: resetOffsetsResult } },
    },
    async (request) => {
      const { id } = request.params;
      const body = request.body as ResetOffsetsRequest;
      const target = resetTarget(body);
      if (!(await withKafka(() => kafka.groups.describe(id)))) throw apiError('GROUP_MISSING');
      const offsets = await auditedChange(ctx, 'consumer-group', 'reset-offsets', id, body, () =>
        withKafka(() => kafka.groups.resetOffsets(id, target, body.topics)),
      );
      return { id, offsets };
    },
  );

  app.delete<ById>(
    '/api/consumer-groups/:id',
    { config: { access: access.admin }, schema: { params: consumerGroupParams, response: { 204: noContent } } },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await withKafka(() => kafka.groups.describe(id)))) throw apiError('GROUP_MISSING');
      const deleted = await auditedChange(ctx, 'consumer-group', 'delete', id, undefined, () =>
        withKafka(() => kafka.groups.delete(id)),
      );
      if (!deleted) throw apiError('GROUP_MISSING');
      return reply.code(204).send();
    },
  );
};

/** The reset's target; a `timestamp` or `offset` that does not go with `to` → 400 naming it. */
function resetTarget(body: ResetOffsetsRequest): ResetTarget {
  const needs = body.to === 'timestamp' ? 'timestamp' : body.to === 'offset' ? 'offset' : undefined;
  for (const field of ['timestamp', 'offset'] as const)
    if (field !== needs && body[field] !== undefined)
      throw apiError('VALIDATION', `body.${field}: only with to=${field} (to is ${body.to})`);
  if (needs !== undefined && body[needs] === undefined)
    throw apiError('VALIDATION', `body.${needs}: required with to=${needs}`);
  if (body.to === 'timestamp') return { to: 'timestamp', timestamp: body.timestamp! };
  if (body.to === 'offset') return { to: 'offset', offset: body.offset! };
  return { to: body.to };
}
