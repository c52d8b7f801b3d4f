import type { EngineState, Rule, Topology, TopicEndpoint } from './types.ts';

/**
 * Tolerant reading of the three forms of the spec's Versioning table: whatever form a server
 * answers in, callers see the latest one.
 */
const stringSerde = 'org.apache.kafka.common.serialization.Serdes$StringSerde';

/** Earlier form `{state}` → `{states: [state]}`. */
export function readEngineState(body: unknown): EngineState {
  const b = (body ?? {}) as { state?: unknown; states?: unknown };
  if (Array.isArray(b.states)) return { states: b.states.map(String) };
  if (typeof b.state === 'string') return { states: [b.state] };
  throw new TypeError(`unexpected engine state body: ${JSON.stringify(body)}`);
}

function endpoint(value: unknown): TopicEndpoint {
  if (typeof value === 'string') return { name: value, keySerde: stringSerde, valueSerde: stringSerde };
  const v = value as Partial<TopicEndpoint>;
  return { name: String(v.name), keySerde: v.keySerde ?? stringSerde, valueSerde: v.valueSerde ?? stringSerde };
}

/** Earlier and middle forms: `input` a topic name, `output` an array of topic names. */
export function readTopology(body: unknown): Topology {
  const t = body as Topology & { input: unknown; output: unknown };
  return {
    ...t,
    group: t.group ?? 'default',
    enabled: t.enabled ?? true,
    input: endpoint(t.input),
    output: Array.isArray(t.output) ? t.output.map(endpoint) : [],
  };
}

/** Earlier and middle forms carry `datamodel`; it is kept (the engine accepts it) but optional. */
export function readRule(body: unknown): Rule {
  const r = body as Rule;
  return { ...r, description: r.description ?? '', annotations: r.annotations ?? [] };
}

/**
 * Rule and PDL test results: latest/middle `{result: object | null}`, earlier `{result: boolean}`.
 * `matched` says whether the event matched; `event` is the output event when the server gave one.
 */
export interface TestOutcome {
  matched: boolean;
  event: Record<string, unknown> | null;
}
export function readTestResult(body: unknown): TestOutcome {
  const result = (body as { result?: unknown } | null)?.result;
  if (typeof result === 'boolean') return { matched: result, event: null };
  if (result === null || result === undefined) return { matched: false, event: null };
  if (typeof result === 'object' && !Array.isArray(result))
    return { matched: true, event: result as Record<string, unknown> };
  throw new TypeError(`unexpected test result: ${JSON.stringify(body)}`);
}

/** A refresh failure is 403 in the earlier form and 401 later: both end the session. */
export function isRefreshFailure(status: number): boolean {
  return status === 401 || status === 403;
}
