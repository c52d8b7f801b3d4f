import type { ErrorObject } from 'ajv';
import { compiledSchema } from '../validation/json-schema.ts';
import { describeValueViolations, type ValuePhrasing } from '../validation/violations.ts';
import {
  maxTopicsPerRequest,
  topicListSchema,
  topicNameProblem,
  topicNameSchema,
  topicSpecSchema,
  type TopicBody,
} from '@weir/contract';

/**
 * A broker topic as the API takes it (spec: Broker topic): its JSON Schema, checked by the topic
 * routes, and the violations worded as the spec fixes them (`$[1].numberOfPartitions: must be an
 * integer >= 1, found 0`, in `Unable to create Kafka topic, error(s) in validating schema -- [...]`).
 */
export interface TopicSpec {
  readonly name: string;
  readonly numberOfPartitions: number;
  readonly replicationFactor: number;
  /** Broker topic settings, all as strings; the earlier form's `compact: true` becomes cleanup.policy=compact. */
  readonly options: Readonly<Record<string, string>>;
}

/** The spec's words for what the schema keywords cannot phrase: the topic name rules, the request limit. */
export const topicPhrasing: ValuePhrasing = {
  fields: Object.keys(topicSpecSchema.properties),
  explain(e: ErrorObject) {
    if (e.parentSchema === topicNameSchema && typeof e.data === 'string') return topicNameProblem(e.data);
    if (e.keyword === 'maxItems' && Array.isArray(e.data))
      return `at most ${maxTopicsPerRequest} topics per request, found ${e.data.length}`;
    return undefined;
  },
};

/** The violations of a topic request, as the spec words them. */
export function topicViolations(errors: readonly ErrorObject[]): string[] {
  return describeValueViolations(errors, topicPhrasing);
}

/** A topic body that passed the schema, as the broker takes it: options as strings, `compact` as cleanup.policy. */
export function topicOf(body: unknown): TopicSpec {
  const { name, numberOfPartitions, replicationFactor, options, compact } = body as TopicBody;
  const settings: Record<string, string> = {};
  for (const [key, value] of Object.entries(options ?? {})) settings[key] = String(value);
  if (compact === true && settings['cleanup.policy'] === undefined) settings['cleanup.policy'] = 'compact';
  return { name, numberOfPartitions, replicationFactor, options: settings };
}

export type TopicValidation =
  { readonly ok: true; readonly topic: TopicSpec } | { readonly ok: false; readonly violations: readonly string[] };

/** Checks one topic against the schema the routes declare. */
export function validateTopic(input: unknown): TopicValidation {
  const validate = compiledSchema(topicSpecSchema);
  return validate(input)
    ? { ok: true, topic: topicOf(input) }
    : { ok: false, violations: topicViolations(validate.errors ?? []) };
}

/** Checks an array of topics; every violation carries its element's index (`$[1].numberOfPartitions: ...`). */
export function validateTopics(
  input: unknown,
):
  | { readonly ok: true; readonly topics: readonly TopicSpec[] }
  | { readonly ok: false; readonly violations: readonly string[] } {
  const validate = compiledSchema(topicListSchema);
  return validate(input)
    ? { ok: true, topics: (input as unknown[]).map(topicOf) }
    : { ok: false, violations: topicViolations(validate.errors ?? []) };
}
