import type { FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../auth/roles.ts';
import { apiError } from '../core/errors.ts';
import { answerOf } from '../http/error-map.ts';
import type { NodeContext } from '../http/node-context.ts';
import { unavailableOr } from '../kafka/broker-errors.ts';
import { messageMasker } from '../kafka/masking.ts';
import type { ConsumedMessage } from '../kafka/consumer-session.ts';
import { defaultDeserializer, serdeTypeOf, type SerdeType } from '../kafka/serdes.ts';
import { alertsTopicName } from '../kafka/weir-topics.ts';
import { metricNames } from '../stream/metric-names.ts';
import type { RouteModule } from './route-module.ts';
import { startPosition, type StartFields } from './topic-schemas.ts';
import {
  eventStream,
  metricsSummary as metricsSummaryShape,
  tailQuery,
  topicParams,
  type TailQuery,
} from '@weir/contract';

/**
 * What the web UI needs live (docs/api.md → Live data): a JSON summary of this node's metrics, and
 * server-sent events that tail a topic or the alerts. Open to every user, like reading topics.
 */
export const liveRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/api/metrics/summary',
    { config: { access: access.member }, schema: { response: { 200: metricsSummaryShape } } },
    async () => metricsSummary(ctx),
  );

  app.get<{ Params: { name: string }; Querystring: TailQuery }>(
    '/api/topics/:name/tail',
    {
      config: { access: access.member },
      schema: { params: topicParams, querystring: tailQuery, response: { 200: eventStream } },
    },
    (request, reply) => tail(ctx, request, reply, request.params.name, 'latest'),
  );

  app.get<{ Querystring: TailQuery }>(
    '/api/alerts/tail',
    { config: { access: access.member }, schema: { querystring: tailQuery, response: { 200: eventStream } } },
    (request, reply) =>
      tail(
        ctx,
        request,
        reply,
        alertsTopicName(ctx.settings.get('weir.topic.prefix'), ctx.settings.get('weir.output.names')),
        'latest',
      ),
  );
};

async function metricsSummary(ctx: NodeContext) {
  const all = await ctx.metrics.registry.getMetricsAsJSON();
  const values = (name: string) => all.find((m) => m.name === name)?.values ?? [];
  const rows = <K extends string>(name: string, keys: readonly K[]) =>
    values(name).map(
      (v) =>
        ({ ...Object.fromEntries(keys.map((k) => [k, String(v.labels[k] ?? '')])), value: v.value }) as Record<
          K,
          string
        > & { value: number },
    );
  return {
    node: ctx.uuid,
    time: Date.now(),
    workers: values(metricNames.workerState)
      .filter((v) => v.value === 1)
      .map((v) => ({ worker: String(v.labels.worker), state: String(v.labels.state) })),
    recordsIn: rows(metricNames.recordsIn, ['topology']),
    recordsOut: rows(metricNames.recordsOut, ['topology', 'topic']),
    deadLettered: rows(metricNames.deadLettered, ['topology', 'task']),
    alerts: rows(metricNames.alerts, ['topology']),
    ruleMatches: rows(metricNames.ruleMatches, ['rule']),
    ruleSuppressed: rows(metricNames.ruleSuppressed, ['rule', 'outcome']),
    lag: rows(metricNames.consumerLag, ['topic', 'partition']),
  };
}

/** A deserializer the query names (its schema lists the known ones), or the default. */
const deserializer = (name: string | undefined): SerdeType => serdeTypeOf(name ?? defaultDeserializer) as SerdeType;

/** Seconds since the epoch at which the request's access token expires. */
function tokenExpiry(request: FastifyRequest): number | undefined {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  try {
    const exp = (JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

const heartbeatMs = 15_000;

async function tail(
  ctx: NodeContext,
  request: FastifyRequest<{ Querystring: TailQuery }>,
  reply: FastifyReply,
  topic: string,
  fallback: 'latest' | 'earliest',
) {
  // Typed and checked by tailQuery before the handler runs; the start position's rules are the route's.
  const q = request.query;
  const fields: StartFields = {
    offset: q.offset,
    startOffset: q.startOffset,
    startTimestamp: q.startTimestamp,
    partition: q.partition,
  };
  const start = startPosition(fields, fallback);
  if (typeof start === 'string') throw apiError('VALIDATION', `querystring: ${start}`);
  const maxSeconds = q.maxSeconds;
  const keyType = deserializer(q.keyDeserializer);
  const valueType = deserializer(q.valueDeserializer);
  const kafka = ctx.topics;
  let exists: boolean;
  try {
    exists = await kafka.admin.exists(topic);
  } catch (err) {
    throw unavailableOr(err, kafka.bootstrap);
  }
  if (!exists) throw apiError('TOPIC_WRITE_MISSING');

  const raw = reply.raw;
  let open = true;
  const write = (chunk: string): boolean => (open ? raw.write(chunk) : true);
  const mask = messageMasker(ctx.settings.get('weir.topics.masked-fields')) ?? ((m: ConsumedMessage) => m);
  const sink = {
    message: (m: ConsumedMessage) => write(`event: message\ndata: ${JSON.stringify(mask(m))}\n\n`),
    end: (reason: string) => {
      write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
      open = false;
      raw.end();
    },
  };
  let t;
  try {
    t = await kafka.tails.open(request.principal.username, topic, { keyType, valueType, start }, sink);
  } catch (err) {
    if (err instanceof RangeError) throw apiError('VALIDATION', err.message);
    if (answerOf(err) !== undefined) throw err;
    throw unavailableOr(err, kafka.bootstrap);
  }
  const tailOf = t;
  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'x-accel-buffering': 'no',
  });
  raw.flushHeaders();
  write(`event: open\ndata: ${JSON.stringify({ topic, start })}\n\n`);
  raw.on('drain', () => tailOf.resume());
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs).unref();
  const exp = tokenExpiry(request);
  // The tail lives as long as the access token that opened it: the client reconnects with a fresh one.
  const expiry =
    exp === undefined
      ? undefined
      : setTimeout(() => void tailOf.close('session expired'), Math.max(0, exp * 1000 - Date.now())).unref();
  // An optional bound chosen by the caller (a command-line tail of N seconds).
  const bound =
    maxSeconds === undefined
      ? undefined
      : setTimeout(() => void tailOf.close('maxSeconds reached'), maxSeconds * 1000).unref();
  raw.on('close', () => {
    clearInterval(heartbeat);
    clearTimeout(expiry);
    clearTimeout(bound);
    open = false;
    void tailOf.close('closed');
  });
}
