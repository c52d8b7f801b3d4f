/**
 * The workload of bench/engine.ts, shared by Weir and its Kafka Streams peer: the input lines, the
 * 100 rules (as conditions, from which both the PDL text and the JSON file the Java peer reads are
 * made), and Weir's configuration snapshot of the passthrough and the reference pipeline.
 */
import type { ConfigSnapshot } from '../packages/engine/src/stream/config-snapshot.ts';

export const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'root', 'svc-backup'];
const stringSerde = 'org.apache.kafka.common.serialization.Serdes$StringSerde';

/** Input line `i` (~230 bytes of `key=value` text with an ISO time). */
export function line(i: number): string {
  const user = users[i % users.length];
  const status = i % 10 === 0 ? 'failed' : 'ok';
  return (
    `ts=2026-11-21T10:${String(Math.floor(i / 60000) % 60).padStart(2, '0')}:${String(Math.floor(i / 1000) % 60).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')}Z ` +
    `user=${user} src=10.0.${i % 256}.${(i * 7) % 256} dst=10.1.0.${i % 50} action=login status=${status} EventID=${4624 + (i % 3)} bytes=${(i * 37) % 100000} process="C:\\Windows\\System32\\svc${i % 40}.exe"`
  );
}

/**
 * One condition of a rule, with PDL's semantics (pdl.md): `eq` a string (`*` a wildcard; string
 * values only), `eqNumber` a number (numbers and canonical numerals), `in` strings, `contains` a
 * substring, `regex` a search, `gt` numeric order.
 */
export type Condition =
  | { readonly field: string; readonly op: 'eq' | 'contains' | 'regex'; readonly value: string }
  | { readonly field: string; readonly op: 'eqNumber' | 'gt'; readonly value: number }
  | { readonly field: string; readonly op: 'in'; readonly value: readonly string[] };

export interface BenchRule {
  readonly id: string;
  readonly name: string;
  readonly annotations: readonly string[];
  /** All must hold. */
  readonly conditions: readonly Condition[];
}

/**
 * 100 Sigma-style rules: equality, wildcards, IN lists, contains, and one in ten with a regex.
 * Selective like real detections, though less: about 9 % of the events raise an alert. Rules past
 * the 100th (memory figures) have the same shapes about users that never occur, so the alerts stay
 * those of the 100.
 */
export function benchRules(count = 100): BenchRule[] {
  const out: BenchRule[] = [];
  for (let r = 0; r < count; r++) {
    const kind = r % 10;
    const user = r < 100 ? users[r % users.length]! : `user-${r}`;
    const conditions: Condition[] =
      kind === 0
        ? [
            { field: 'EventID', op: 'eqNumber', value: 4625 },
            { field: 'user', op: 'eq', value: user },
            { field: 'process', op: 'regex', value: `svc${r % 40}\\.exe$` },
            { field: 'status', op: 'eq', value: 'failed' },
          ]
        : kind < 4
          ? [
              { field: 'EventID', op: 'eqNumber', value: 4624 + (r % 3) },
              { field: 'user', op: 'eq', value: user },
              { field: 'status', op: 'eq', value: 'failed' },
              { field: 'dst', op: 'eq', value: `10.1.0.${r % 50}` },
            ]
          : kind < 6
            ? [
                { field: 'user', op: 'in', value: [user, `nobody-${r}`] },
                { field: 'dst', op: 'eq', value: `10.1.0.${r % 50}` },
                { field: 'src', op: 'eq', value: `10.0.${r}.*` },
              ]
            : kind < 8
              ? [
                  { field: 'process', op: 'eq', value: `*\\svc${r % 40}.exe` },
                  { field: 'action', op: 'eq', value: 'login' },
                  { field: 'user', op: 'eq', value: user },
                  { field: 'bytes', op: 'gt', value: r * 900 },
                  { field: 'status', op: 'eq', value: 'failed' },
                ]
              : [
                  { field: 'src', op: 'contains', value: `10.0.${r}.` },
                  { field: 'status', op: 'eq', value: 'failed' },
                  { field: 'user', op: 'eq', value: user },
                  { field: 'EventID', op: 'eqNumber', value: 4626 },
                ];
    out.push({ id: `r${r}`, name: `rule ${r}`, annotations: [`T${1000 + r}`], conditions });
  }
  return out;
}

/** A PDL string literal of `text` (`\` and `"` escaped; `*` stays a wildcard). */
const literal = (text: string): string => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

function pdlOf(c: Condition): string {
  switch (c.op) {
    case 'eq':
      return `${c.field}=${literal(c.value)}`;
    case 'eqNumber':
      return `${c.field}=${c.value}`;
    case 'gt':
      return `${c.field} > ${c.value}`;
    case 'contains':
      return `${c.field} ?= ${literal(c.value)}`;
    case 'regex':
      return `${c.field} ~= ${literal(c.value)}`;
    case 'in':
      return `${c.field} IN [${c.value.map(literal).join(', ')}]`;
  }
}

/** The rules as Weir stores them. */
export function pdlRules(rules: readonly BenchRule[]): ConfigSnapshot['rules'] {
  return rules.map((r) => ({
    id: r.id,
    name: r.name,
    pdl: r.conditions.map(pdlOf).join(' AND '),
    annotations: [...r.annotations],
    enabled: true,
  }));
}

/** The rows of the `assets` lookup of the memory figures: `ip` (10.x.y.z, unique), `owner`, `site`. */
export function assetRows(count: number): Record<string, unknown>[] {
  const content: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) content.push(assetRow(i));
  return content;
}

function assetRow(i: number): Record<string, unknown> {
  return { ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, owner: `team-${i % 100}`, site: `site-${i % 7}` };
}

/**
 * The lookup `id` of `assetRows(count)` as the config store holds it: its JSON bytes, as
 * `store.listJson('lookups')` gives them to the stream engine, written row by row (no row kept).
 */
export function storedLookupJson(id: string, count: number): Buffer {
  const head = `{"id":${JSON.stringify(id)},"content":[`;
  let size = Buffer.byteLength(head) + 2 + Math.max(0, count - 1);
  for (let i = 0; i < count; i++) size += Buffer.byteLength(JSON.stringify(assetRow(i)));
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head);
  for (let i = 0; i < count; i++) at += out.write(`${i > 0 ? ',' : ''}${JSON.stringify(assetRow(i))}`, at);
  out.write(']}', at);
  return out;
}

export type Scenario = 'passthrough' | 'reference';

/** The reference pipeline's tasks: PARSE_KV → TIMESTAMP → PDL_EXPRESSION → APPLY_RULES. */
export const referenceTasks: ConfigSnapshot['tasks'] = [
  { id: 1, name: 'parse', function: 'PARSE_KV', definition: {} },
  { id: 2, name: 'time', function: 'TIMESTAMP', definition: { field: 'ts' } },
  {
    id: 3,
    name: 'enrich',
    function: 'PDL_EXPRESSION',
    definition: { pdl: 'eval severity=if(status="failed", "high", "low"), who=lower(user)' },
  },
];

/** Weir's configuration of one scenario: input → (pipeline) → output; extra lookups for the memory figures. */
export function snapshot(
  kind: Scenario,
  input: string,
  output: string,
  rules: readonly BenchRule[],
  lookups: ConfigSnapshot['lookups'] = [],
): ConfigSnapshot {
  const topology = {
    id: 1,
    name: kind,
    pipelines: kind === 'passthrough' ? [] : [1],
    enabled: true,
    group: 'default',
    input: { name: input, keySerde: stringSerde, valueSerde: stringSerde },
    output: [{ name: output, keySerde: stringSerde, valueSerde: stringSerde }],
  };
  return {
    version: 1,
    topologies: [topology],
    pipelines: [{ id: 1, name: 'reference', tasks: [1, 2, 3, 4] }],
    tasks: [
      ...referenceTasks,
      { id: 4, name: 'detect', function: 'APPLY_RULES', definition: { rules: rules.map((r) => r.id) } },
    ],
    rules: pdlRules(rules),
    lookups,
  };
}
