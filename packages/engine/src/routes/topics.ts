import type { ErrorObject } from 'ajv';
import { access } from '../auth/roles.ts';
import type { NodeContext } from '../http/node-context.ts';
import { apiError, withDetails } from '../core/errors.ts';
import { brokerErrorId, brokerReason, isUnreachable, unavailableOr } from '../kafka/broker-errors.ts';
import { SerdeError, serialize } from '../kafka/serde-codecs.ts';
import { defaultDeserializer, defaultSerializer, serdeTypeOf, type SerdeType } from '../kafka/serdes.ts';
import { topicOf, topicViolations, type TopicSpec } from '../kafka/topic-spec.ts';
import type { RecordToProduce } from '../kafka/topic-producer.ts';
import { requiredTopics, weirTopicNames } from '../kafka/weir-topics.ts';
import { messageMasker } from '../kafka/masking.ts';
import type { RouteModule } from './route-module.ts';
import {
  consumed,
  consumeDefaults,
  consumeQuery,
  type ConsumeQuery,
  consumerCreated,
  initialized,
  noContent,
  produceBody,
  produced,
  produceQuery,
  type ProduceQuery,
  topic,
  topicCreated,
  topicListSchema,
  topicNames,
  topicOrListSchema,
  topicParams,
  topicResults,
} from '@weir/contract';
import { consumeBody, startPosition, type StartFields } from './topic-schemas.ts';

type ByName = { Params: { name: string } };
interface ProduceBody {
  readonly keySerializer?: string;
  readonly valueSerializer?: string;
  readonly messages: readonly {
    readonly key?: unknown;
    readonly value: unknown;
    readonly headers?: Readonly<Record<string, string>>;
  }[];
}
interface ConsumeBody extends StartFields {
  readonly keyDeserializer?: string;
  readonly valueDeserializer?: string;
  readonly maxEvents?: number;
  readonly maxTimeoutSeconds?: number;
  readonly untilEnd?: boolean;
}
type TopicResult = { name?: string; result: 'success' | 'failure'; message?: string };

/** Most serialization errors listed in one 400. */
const maxListedErrors = 20;

/**
 * Spec: Endpoints → Topics, with the earlier forms (array body to POST /api/topics, GET
 * /api/topics/list, GET /api/topics/init). Create, delete, bulk and produce are admin only; reading
 * and consuming are open to every user (architecture: Security model).
 */
export const topicRoutes: RouteModule = (app, ctx) => {
  const kafka = ctx.topics;
  const withKafka = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof RangeError) throw apiError('VALIDATION', err.message);
      throw unavailableOr(err, kafka.bootstrap);
    }
  };

  app.get('/api/topics', { config: { access: access.member }, schema: { response: { 200: topicNames } } }, () =>
    withKafka(() => kafka.admin.list()),
  );
  app.get('/api/topics/list', { config: { access: access.member }, schema: { response: { 200: topicNames } } }, () =>
    withKafka(() => kafka.admin.list()),
  );

  app.get(
    '/api/topics/init',
    { config: { access: access.member }, schema: { response: { 200: initialized } } },
    async () => {
      const names = weirTopicNames(ctx.settings.get('weir.topic.prefix'));
      const existing = new Set(await withKafka(() => kafka.admin.list()));
      return { initialized: requiredTopics.every((t) => existing.has(names[t])) };
    },
  );

  const topicBody = { access: access.admin, invalid: invalidTopics };
  app.post(
    '/api/topics',
    { config: topicBody, schema: { body: topicOrListSchema, response: { 201: topicCreated } } },
    async (request, reply) => {
      if (Array.isArray(request.body)) {
        // Earlier form: [{name, numberOfPartitions, replicationFactor, compact}] → [{result, name} | {result, message}].
        const topics = request.body.map(topicOf);
        const results = await createEach(ctx, topics);
        return reply
          .code(201)
          .header('location', '/api/topics')
          .send(
            results.map((r) =>
              r.result === 'success' ? { result: r.result, name: r.name } : { result: r.result, message: r.message },
            ),
          );
      }
      const topic = topicOf(request.body);
      try {
        const created = await auditedTopicChange(ctx, 'create', topic.name, topic, () => kafka.admin.create(topic));
        return reply.code(201).header('location', '/api/topics').send(created);
      } catch (err) {
        if (brokerErrorId(err) !== undefined) throw apiError('TOPIC_REFUSED', topic.name, brokerReason(err));
        throw unavailableOr(err, kafka.bootstrap);
      }
    },
  );

  app.post(
    '/api/bulk/topics',
    { config: topicBody, schema: { body: topicListSchema, response: { 201: topicResults } } },
    async (request, reply) => {
      const results = await createEach(ctx, (request.body as unknown[]).map(topicOf));
      return reply.code(201).header('location', '/api/topics').send(results);
    },
  );

  app.get<ByName>(
    '/api/topics/:name',
    { config: { access: access.member }, schema: { params: topicParams, response: { 200: topic } } },
    async (request) => {
      const topic = await withKafka(() => kafka.admin.describe(request.params.name));
      if (!topic) throw apiError('TOPIC_MISSING');
      return topic;
    },
  );

  app.delete<ByName>(
    '/api/topics/:name',
    { config: { access: access.admin }, schema: { params: topicParams, response: { 204: noContent } } },
    async (request, reply) => {
      const deleted = await auditedTopicChange(ctx, 'delete', request.params.name, undefined, () =>
        withKafka(() => kafka.admin.delete(request.params.name)),
      );
      if (!deleted) throw apiError('TOPIC_DELETE_MISSING');
      return reply.code(204).send();
    },
  );

  app.post<ByName & { Querystring: ProduceQuery }>(
    '/api/topics/:name/produce',
    {
      config: { access: access.admin },
      schema: { params: topicParams, querystring: produceQuery, body: produceBody, response: { 201: produced } },
    },
    async (request, reply) => {
      const { name } = request.params;
      const body = request.body as ProduceBody;
      if (!(await withKafka(() => kafka.admin.exists(name)))) throw apiError('TOPIC_WRITE_MISSING');
      const records = serializeMessages(body);
      try {
        const written = await kafka.producer.send(name, records);
        // The spec's answer is `{result}`; the offsets only when asked for (docs/api.md → Producing).
        const answer = request.query.offsets === true ? { result: 'success', offsets: written } : { result: 'success' };
        return reply.code(201).header('location', '/api/topics').send(answer);
      } catch (err) {
        if (isUnreachable(err) && brokerErrorId(err) === undefined) throw unavailableOr(err, kafka.bootstrap);
        request.log.warn({ err, topic: name }, 'produce refused');
        return reply
          .code(201)
          .header('location', '/api/topics')
          .send({ result: 'failure', message: brokerReason(err) });
      }
    },
  );

  app.post<ByName>(
    '/api/topics/:name/consume',
    {
      config: { access: access.member },
      schema: { params: topicParams, body: consumeBody(ctx.settings), response: { 201: consumerCreated } },
    },
    async (request, reply) => {
      const { name } = request.params;
      const body = (request.body ?? {}) as ConsumeBody;
      const start = startPosition(body, consumeDefaults.offset);
      if (typeof start === 'string') throw apiError('VALIDATION', `body: ${start}`);
      if (!(await withKafka(() => kafka.admin.exists(name)))) throw apiError('TOPIC_WRITE_MISSING');
      await withKafka(() =>
        kafka.consumers.open(request.principal.username, name, {
          keyType: serdeTypeOf(body.keyDeserializer ?? defaultDeserializer) as SerdeType,
          valueType: serdeTypeOf(body.valueDeserializer ?? defaultDeserializer) as SerdeType,
          maxEvents:
            body.maxEvents ?? Math.min(consumeDefaults.maxEvents, ctx.settings.get('weir.topics.consume.max-events')),
          maxTimeoutSeconds:
            body.maxTimeoutSeconds ??
            Math.min(consumeDefaults.maxTimeoutSeconds, ctx.settings.get('weir.topics.consume.max-timeout-seconds')),
          start,
          untilEnd: body.untilEnd === true,
        }),
      );
      return reply
        .code(201)
        .header('location', `/api/topics/${encodeURIComponent(name)}/consume`)
        .send({ status: 'CREATED' });
    },
  );

  app.get<ByName & { Querystring: ConsumeQuery }>(
    '/api/topics/:name/consume',
    {
      config: { access: access.member },
      schema: { params: topicParams, querystring: consumeQuery, response: { 200: consumed } },
    },
    async (request) => {
      const read = kafka.consumers.read(request.principal.username, request.params.name, request.query.index ?? 0);
      if (!read) throw apiError('CONSUMER_MISSING', request.params.name);
      const mask = messageMasker(ctx.settings.get('weir.topics.masked-fields'));
      return mask ? { status: read.status, messages: read.messages.map(mask) } : read;
    },
  );
};

/** A topic body that fails its schema: the spec's TOPIC_INVALID, listing every violation. */
function invalidTopics(errors: readonly ErrorObject[]) {
  const violations = topicViolations(errors);
  return withDetails(apiError('TOPIC_INVALID', violations.join(', ')), violations);
}

/** One CreateTopics call per topic, in order, so that each gets its own result and broker message. */
/**
 * A topic change with its audit entries. The broker's admin operations are not transactional, so the
 * entry is written first (no topic changes unaudited: if it cannot be written the call answers 503
 * and nothing is done), and a second entry (`<action>-failed`) records a refusal or an error.
 */
async function auditedTopicChange<T>(
  ctx: NodeContext,
  action: 'create' | 'delete',
  name: string,
  spec: TopicSpec | undefined,
  change: () => Promise<T>,
): Promise<T> {
  return auditedChange(ctx, 'topic', action, name, spec, change);
}

/** A change of the cluster (topic, consumer group) with its audit entries, as auditedTopicChange. */
export async function auditedChange<T>(
  ctx: NodeContext,
  kind: string,
  action: string,
  id: string,
  after: unknown,
  change: () => Promise<T>,
): Promise<T> {
  await ctx.store.record(kind, action, id, after === undefined ? {} : { after });
  try {
    const result = await change();
    if (result === false)
      await ctx.store.record(kind, `${action}-failed`, id, { detail: `the ${kind} does not exist` });
    return result;
  } catch (err) {
    await ctx.store.record(kind, `${action}-failed`, id, { detail: (err as Error).message }).catch(() => {});
    throw err;
  }
}

async function createEach(ctx: NodeContext, topics: readonly TopicSpec[]): Promise<TopicResult[]> {
  const results: TopicResult[] = [];
  for (const topic of topics) {
    try {
      await auditedTopicChange(ctx, 'create', topic.name, topic, () => ctx.topics.admin.create(topic));
      results.push({ name: topic.name, result: 'success' });
    } catch (err) {
      results.push({ name: topic.name, result: 'failure', message: brokerReason(err) });
    }
  }
  return results;
}

/** Every message through its serializer; values that do not fit → 400 naming each message index. */
function serializeMessages(body: ProduceBody): RecordToProduce[] {
  const keyType = serdeTypeOf(body.keySerializer ?? defaultSerializer) as SerdeType;
  const valueType = serdeTypeOf(body.valueSerializer ?? defaultSerializer) as SerdeType;
  const records: RecordToProduce[] = [];
  const errors: string[] = [];
  body.messages.forEach((message, i) => {
    let key: Buffer | null = null;
    let value: Buffer | null = null;
    try {
      key = serialize(keyType, message.key);
    } catch (err) {
      if (!(err instanceof SerdeError)) throw err;
      errors.push(`messages[${i}].key: ${err.message}`);
    }
    try {
      value = serialize(valueType, message.value);
    } catch (err) {
      if (!(err instanceof SerdeError)) throw err;
      errors.push(`messages[${i}].value: ${err.message}`);
    }
    records.push(message.headers ? { key, value, headers: message.headers } : { key, value });
  });
  if (errors.length > 0) {
    const listed =
      errors.length > maxListedErrors
        ? [...errors.slice(0, maxListedErrors), `… and ${errors.length - maxListedErrors} more`]
        : errors;
    throw withDetails(apiError('MESSAGE_INVALID', listed.join(', ')), listed);
  }
  return records;
}
