import { topicNameProblem, topicNameSchema } from './topic-names.ts';

/**
 * A broker topic as the API takes it (spec: Broker topic) and its validation. Pure: the routes turn
 * the violations into the spec's 400 (`Unable to create Kafka topic, error(s) in validating schema -- [...]`).
 */
export interface TopicSpec {
  readonly name: string;
  readonly numberOfPartitions: number;
  readonly replicationFactor: number;
  /** Broker topic settings, all as strings; the earlier form's `compact: true` becomes cleanup.policy=compact. */
  readonly options: Readonly<Record<string, string>>;
}

const maxPartitions = 2 ** 31 - 1;
const maxReplicationFactor = 2 ** 15 - 1;

/**
 * The topic body as JSON Schema, for the OpenAPI document. validateTopic checks bodies by hand
 * because the spec fixes the wording of its violations (`$[1].numberOfPartitions: ...`).
 */
export const topicSpecSchema = {
  type: 'object',
  properties: {
    name: topicNameSchema,
    numberOfPartitions: { type: 'integer', minimum: 1, maximum: maxPartitions },
    replicationFactor: { type: 'integer', minimum: 1, maximum: maxReplicationFactor },
    options: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
    compact: { type: 'boolean', description: 'earlier form of options["cleanup.policy"] = "compact"' },
  },
  required: ['name', 'numberOfPartitions', 'replicationFactor'],
  additionalProperties: false,
} as const;
/** Most topics one bulk request may create. */
export const maxTopicsPerRequest = 1000;

const fields = ['name', 'numberOfPartitions', 'replicationFactor', 'options', 'compact'] as const;

function describe(value: unknown): string {
  if (typeof value === 'string') return `string "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function integerProblem(value: unknown, max: number): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return `must be an integer >= 1, found ${describe(value)}`;
  if (value < 1) return `must be an integer >= 1, found ${value}`;
  if (value > max) return `must be an integer <= ${max}, found ${value}`;
  return undefined;
}

export type TopicValidation =
  | { readonly ok: true; readonly topic: TopicSpec }
  | { readonly ok: false; readonly violations: readonly string[] };

/**
 * Checks one topic of a request. `path` prefixes every violation (`$` or `$[2]`). Unknown fields are
 * violations too, so that a typo (`partitions`) does not silently create a one-partition topic.
 */
export function validateTopic(input: unknown, path = '$'): TopicValidation {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, violations: [`${path}: must be an object with name, numberOfPartitions, replicationFactor and options, found ${describe(input)}`] };
  }
  const body = input as Record<string, unknown>;
  const violations: string[] = [];
  for (const key of Object.keys(body)) {
    if (!(fields as readonly string[]).includes(key)) violations.push(`${path}.${key}: unknown field; accepted: ${fields.join(', ')}`);
  }
  const { name, numberOfPartitions, replicationFactor, options, compact } = body;
  if (name === undefined) violations.push(`${path}.name: is required`);
  else if (typeof name !== 'string') violations.push(`${path}.name: must be a string, found ${describe(name)}`);
  else {
    const problem = topicNameProblem(name);
    if (problem) violations.push(`${path}.name: ${problem}`);
  }
  for (const [field, value, max] of [['numberOfPartitions', numberOfPartitions, maxPartitions], ['replicationFactor', replicationFactor, maxReplicationFactor]] as const) {
    if (value === undefined) violations.push(`${path}.${field}: is required`);
    else {
      const problem = integerProblem(value, max);
      if (problem) violations.push(`${path}.${field}: ${problem}`);
    }
  }
  const settings: Record<string, string> = {};
  if (options !== undefined && options !== null) {
    if (typeof options !== 'object' || Array.isArray(options)) violations.push(`${path}.options: must be an object of setting name to string value, found ${describe(options)}`);
    else {
      for (const [key, value] of Object.entries(options)) {
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') settings[key] = String(value);
        else violations.push(`${path}.options.${key}: must be a string, found ${describe(value)}`);
      }
    }
  }
  if (compact !== undefined) {
    if (typeof compact !== 'boolean') violations.push(`${path}.compact: must be true or false, found ${describe(compact)}`);
    else if (compact && settings['cleanup.policy'] === undefined) settings['cleanup.policy'] = 'compact';
  }
  if (violations.length > 0) return { ok: false, violations };
  return {
    ok: true,
    topic: { name: name as string, numberOfPartitions: numberOfPartitions as number, replicationFactor: replicationFactor as number, options: settings },
  };
}

/**
 * Checks an array of topics (bulk and the earlier array form). One invalid element fails the whole
 * request, and every violation carries its element's index (`$[1].numberOfPartitions: ...`).
 */
export function validateTopics(input: unknown):
  { readonly ok: true; readonly topics: readonly TopicSpec[] } | { readonly ok: false; readonly violations: readonly string[] } {
  if (!Array.isArray(input)) return { ok: false, violations: [`$: must be an array of topics, found ${describe(input)}`] };
  if (input.length > maxTopicsPerRequest) return { ok: false, violations: [`$: at most ${maxTopicsPerRequest} topics per request, found ${input.length}`] };
  const topics: TopicSpec[] = [];
  const violations: string[] = [];
  input.forEach((element, i) => {
    const result = validateTopic(element, `$[${i}]`);
    if (result.ok) topics.push(result.topic);
    else violations.push(...result.violations);
  });
  return violations.length > 0 ? { ok: false, violations } : { ok: true, topics };
}
