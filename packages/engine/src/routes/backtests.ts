import type { FastifyReply, FastifyRequest } from 'fastify';
import { backtestBody, backtestEvents, backtestStatus, listOf, type StoredRule } from '@weir/contract';
import { access } from '../auth/roles.ts';
import { Backtests } from '../backtests/backtests.ts';
import { planBacktest, type BacktestCatalog } from '../backtests/backtest-request.ts';
import { RangeReader } from '../backtests/range-reader.ts';
import { kafkaConnection } from '../kafka/client-options.ts';
import { RecordVersions } from '../resources/record-versions.ts';
import { pipelineKind } from '../resources/pipeline.ts';
import { ruleKind } from '../resources/rule.ts';
import { topologyKind } from '../resources/topology.ts';
import { storedLookups } from '../rules/lookup-tables.ts';
import type { NodeContext } from '../http/node-context.ts';
import type { RouteModule } from './route-module.ts';

type ById = { Params: { id: string } };

const heartbeatMs = 15_000;
const isAdmin = (request: FastifyRequest) => request.principal.roles.some((r) => r.name === 'admin');

/** The Kafka side of the backtests: partition counts through the topic endpoints' clients, one range reader per node. */
function kafkaOf(ctx: NodeContext) {
  let reader: RangeReader | undefined;
  return {
    partitions: async (topic: string) => (await ctx.topics.details.partitions(topic))?.partitions.length,
    reader: () => {
      const appId = ctx.settings.get('weir.application.id');
      return (reader ??= new RangeReader({
        ...kafkaConnection(ctx.settings, `${appId}-backtest`),
        groupId: `${appId}-backtest-never-joined`,
      }));
    },
    close: () => reader?.close(),
  };
}

/**
 * Backtests over Kafka (docs/detection-as-code.md, "Backtests over Kafka"; docs/api.md): start
 * (202 + Location), read, list, follow as server-sent events, cancel. Any signed-in user (member)
 * may backtest; a backtest is seen and cancelled by its user and by admins.
 */
export const backtestRoutes: RouteModule = (app, ctx) => {
  const kafka = kafkaOf(ctx);
  const backtests = new Backtests(
    () => ({
      maxEvents: ctx.settings.get('weir.backtest.max-events'),
      deadlineSeconds: ctx.settings.get('weir.backtest.deadline-seconds'),
      maxPerUser: ctx.settings.get('weir.backtest.max-per-user'),
      maxEventsPerSecond: ctx.settings.get('weir.backtest.max-events-per-second'),
    }),
    kafka,
  );
  app.addHook('onClose', async () => {
    backtests.close();
    await kafka.close();
  });
  const versions = {
    rules: new RecordVersions(ruleKind, ctx.store),
    pipelines: new RecordVersions(pipelineKind, ctx.store),
    topologies: new RecordVersions(topologyKind, ctx.store),
  };
  const lookups = storedLookups(ctx.store);
  const catalog: BacktestCatalog = {
    version: (collection, id, version) => versions[collection].find(id, version).record,
    current: (collection, id) => ctx.store.get(collection, id),
    rules: () => ctx.store.list<StoredRule>('rules'),
    lookups,
  };
  const member = { config: { access: access.member } };

  app.post(
    '/api/backtests',
    { ...member, schema: { body: backtestBody, response: { 202: backtestStatus } } },
    async (request, reply) => {
      const plan = planBacktest(request.body, catalog);
      const status = await backtests.start(request.principal.username, plan, lookups);
      const source = plan.input.kind === 'events' ? `${plan.input.events.length} events` : `topic ${plan.input.topic}`;
      await ctx.store.record('backtest', 'start', status.id, {
        detail: `${plan.label} over ${source}`,
      });
      void reply.code(202).header('location', `/api/backtests/${status.id}`);
      return status;
    },
  );

  app.get('/api/backtests', { ...member, schema: { response: { 200: listOf(backtestStatus) } } }, async (request) =>
    backtests.list(request.principal.username, isAdmin(request)),
  );

  app.get<ById>('/api/backtests/:id', { ...member, schema: { response: { 200: backtestStatus } } }, async (request) =>
    backtests.get(request.params.id, request.principal.username, isAdmin(request)),
  );

  app.delete<ById>(
    '/api/backtests/:id',
    { ...member, schema: { response: { 200: backtestStatus } } },
    async (request) => {
      const status = backtests.cancel(request.params.id, request.principal.username, isAdmin(request));
      await ctx.store.record('backtest', 'cancel', status.id);
      return status;
    },
  );

  app.get<ById>(
    '/api/backtests/:id/events',
    { ...member, schema: { response: { 200: backtestEvents } } },
    async (request, reply) => {
      stream(backtests, request, reply);
    },
  );
};

/**
 * The status as server-sent events: `event: status` with the whole status at once, then at every
 * progress step (at most 4 a second) and change of state; the stream ends after the last state
 * (done, failed, cancelled).
 */
function stream(backtests: Backtests, request: FastifyRequest<ById>, reply: FastifyReply): void {
  const user = request.principal.username;
  const admin = isAdmin(request);
  const first = backtests.get(request.params.id, user, admin);
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'x-accel-buffering': 'no',
  });
  let open = true;
  const send = (status: typeof first) => {
    if (!open) return;
    raw.write(`event: status\ndata: ${JSON.stringify(status)}\n\n`);
    if (status.state !== 'queued' && status.state !== 'running') close();
  };
  const heartbeat = setInterval(() => open && raw.write(': keep-alive\n\n'), heartbeatMs).unref();
  let unsubscribe = () => {};
  const close = () => {
    if (!open) return;
    open = false;
    clearInterval(heartbeat);
    unsubscribe();
    raw.end();
  };
  raw.on('close', close);
  unsubscribe = backtests.subscribe(request.params.id, user, admin, send);
  send(first);
}
