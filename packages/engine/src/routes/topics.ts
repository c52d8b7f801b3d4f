import { access } from '../auth/roles.ts';
import type { NodeContext } from '../node-context.ts';
import { apiError, withDetails } from '../errors.ts';
import { brokerErrorId, brokerReason, isUnreachable, unavailableOr } from '../kafka/broker-errors.ts';
import { SerdeError, serialize } from '../kafka/serde-codecs.ts';
import { defaultDeserializer, defaultSerializer, serdeTypeOf, type SerdeType } from '../kafka/serdes.ts';
import { validateTopic, validateTopics, type TopicSpec } from '../kafka/topic-spec.ts';
import type { RecordToProduce } from '../kafka/topic-producer.ts';
import { requiredTopics, weirTopicNames } from '../kafka/weir-topics.ts';
import type { RouteModule } from './route-module.ts';
import { consumeBody, consumeDefaults, consumeQuery, produceBody, topicParams } from './topic-schemas.ts';

type ByName = { Params: { name: string } };
interface ProduceBody {
  readonly keySerializer?: string;
  readonly valueSerializer?: string;
  readonly messages: readonly { readonly key?: unknown; readonly value: unknown }[];
}
interface ConsumeBody {
  readonly keyDeserializer?: string;
  readonly valueDeserializer?: string;
  readonly maxEvents?: number;
  readonly maxTimeoutSeconds?: number;
  readonly offset?: 'earliest' | 'latest';
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
      throw unavailableOr(err, kafka.bootstrap);
    }
  };

  app.get('/api/topics', { config: { access: access.member } }, () => withKafka(() => kafka.admin.list()));
  app.get('/api/topics/list', { config: { access: access.member } }, () => withKafka(() => kafka.admin.list()));

  app.get('/api/topics/init', { config: { access: access.member } }, async () => {
    const names = weirTopicNames(ctx.settings.get('weir.topic.prefix'));
    const existing = new Set(await withKafka(() => kafka.admin.list()));
    return { initialized: requiredTopics.every((t) => existing.has(names[t])) };
  });

  app.post('/api/topics', { config: { access: access.admin } }, async (request, reply) => {
    if (Array.isArray(request.body)) {
      // Earlier form: [{name, numberOfPartitions, replicationFactor, compact}] → [{result, name} | {result, message}].
      const topics = checkedTopics(request.body);
      const results = await createEach(ctx, topics);
      return reply.code(201).header('location', '/api/topics').send(
        results.map((r) => (r.result === 'success' ? { result: r.result, name: r.name } : { result: r.result, message: r.message })));
    }
    const checked = validateTopic(request.body);
    if (!checked.ok) throw invalidTopics(checked.violations);
    try {
      const created = await kafka.admin.create(checked.topic);
      return reply.code(201).header('location', '/api/topics').send(created);
    } catch (err) {
      if (brokerErrorId(err) !== undefined) throw apiError('TOPIC_REFUSED', checked.topic.name, brokerReason(err));
      throw unavailableOr(err, kafka.bootstrap);
    }
  });

  app.post('/api/bulk/topics', { config: { access: access.admin } }, async (request, reply) => {
    const results = await createEach(ctx, checkedTopics(request.body));
    return reply.code(201).header('location', '/api/topics').send(results);
  });

  app.get<ByName>('/api/topics/:name', { config: { access: access.member }, schema: { params: topicParams } }, async (request) => {
    const topic = await withKafka(() => kafka.admin.describe(request.params.name));
    if (!topic) throw apiError('TOPIC_MISSING');
    return topic;
  });

  app.delete<ByName>('/api/topics/:name', { config: { access: access.admin }, schema: { params: topicParams } }, async (request, reply) => {
    const deleted = await withKafka(() => kafka.admin.delete(request.params.name));
    if (!deleted) throw apiError('TOPIC_DELETE_MISSING');
    return reply.code(204).send();
  });

  app.post<ByName>('/api/topics/:name/produce', { config: { access: access.admin }, schema: { params: topicParams, body: produceBody } },
    async (request, reply) => {
      const { name } = request.params;
      const body = request.body as ProduceBody;
      if (!(await withKafka(() => kafka.admin.exists(name)))) throw apiError('TOPIC_WRITE_MISSING');
      const records = serializeMessages(body);
      try {
        await kafka.producer.send(name, records);
        return reply.code(201).header('location', '/api/topics').send({ result: 'success' });
      } catch (err) {
        if (isUnreachable(err) && brokerErrorId(err) === undefined) throw unavailableOr(err, kafka.bootstrap);
        request.log.warn({ err, topic: name }, 'produce refused');
        return reply.code(201).header('location', '/api/topics').send({ result: 'failure', message: brokerReason(err) });
      }
    });

  app.post<ByName>('/api/topics/:name/consume', { config: { access: access.member }, schema: { params: topicParams, body: consumeBody(ctx.settings) } },
    async (request, reply) => {
      const { name } = request.params;
      const body = (request.body ?? {}) as ConsumeBody;
      if (!(await withKafka(() => kafka.admin.exists(name)))) throw apiError('TOPIC_WRITE_MISSING');
      await withKafka(() => kafka.consumers.open(request.principal.username, name, {
        keyType: serdeTypeOf(body.keyDeserializer ?? defaultDeserializer) as SerdeType,
        valueType: serdeTypeOf(body.valueDeserializer ?? defaultDeserializer) as SerdeType,
        maxEvents: body.maxEvents ?? Math.min(consumeDefaults.maxEvents, ctx.settings.get('weir.topics.consume.max-events')),
        maxTimeoutSeconds: body.maxTimeoutSeconds ?? Math.min(consumeDefaults.maxTimeoutSeconds, ctx.settings.get('weir.topics.consume.max-timeout-seconds')),
        offset: body.offset ?? consumeDefaults.offset,
      }));
      return reply.code(201).header('location', `/api/topics/${encodeURIComponent(name)}/consume`).send({ status: 'CREATED' });
    });

  app.get<ByName & { Querystring: { index?: string } }>('/api/topics/:name/consume',
    { config: { access: access.member }, schema: { params: topicParams, querystring: consumeQuery } }, async (request) => {
      const raw = request.query.index;
      if (raw !== undefined && !/^\d{1,9}$/.test(raw)) {
        throw apiError('VALIDATION', `querystring.index must be an integer >= 0 (the first message to return), found '${raw}'`);
      }
      const read = kafka.consumers.read(request.principal.username, request.params.name, raw === undefined ? 0 : Number(raw));
      if (!read) throw apiError('CONSUMER_MISSING', request.params.name);
      return read;
    });
};

function invalidTopics(violations: readonly string[]) {
  return withDetails(apiError('TOPIC_INVALID', violations.join(', ')), violations);
}

function checkedTopics(body: unknown): readonly TopicSpec[] {
  const checked = validateTopics(body);
  if (!checked.ok) throw invalidTopics(checked.violations);
  return checked.topics;
}

/** One CreateTopics call per topic, in order, so that each gets its own result and broker message. */
async function createEach(ctx: NodeContext, topics: readonly TopicSpec[]): Promise<TopicResult[]> {
  const results: TopicResult[] = [];
  for (const topic of topics) {
    try {
      await ctx.topics.admin.create(topic);
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
    records.push({ key, value });
  });
  if (errors.length > 0) {
    const listed = errors.length > maxListedErrors ? [...errors.slice(0, maxListedErrors), `… and ${errors.length - maxListedErrors} more`] : errors;
    throw withDetails(apiError('MESSAGE_INVALID', listed.join(', ')), listed);
  }
  return records;
}
