import type { SilenceMatcher, StoredSilence } from '@weir/contract';

/**
 * Which silences silence an alert (docs/alerts.md, "Silences"), as Alertmanager matches labels:
 * a field the alert lacks has the value "" (so `field=""` holds for it, `field!="x"` holds, and
 * `field!=""` does not); a regular expression must match the whole value (`^(?:re)$`). Alert
 * records are JSON, not labels, so a value is read as text like this:
 * - a string is itself; a number or boolean is its JSON text (`2`, `true`);
 * - null, an object and an empty array count as missing;
 * - an array is its scalar elements: `=` and `=~` hold when any element matches, `!=` and `!~` when
 *   none does (they are the negations of `=` and `=~`).
 * A field is a path of keys joined by dots (`host.name`); a key that itself contains dots
 * (`{"host.name": …}`) is found as well.
 */

type Test = (value: string) => boolean;

interface CompiledMatcher {
  readonly values: (alert: unknown) => readonly string[];
  readonly test: Test;
  readonly negated: boolean;
}

interface CompiledSilence {
  readonly startsAt: number;
  readonly endsAt: number;
  readonly matchers: readonly CompiledMatcher[];
}

/** The regular expression of a `=~`/`!~` matcher, anchored as Alertmanager anchors it; throws when it does not compile. */
export function matcherRegExp(value: string): RegExp {
  return new RegExp(`^(?:${value})$`, 'u');
}

/** Why a matcher's field is not a path (`a..b`, `.a`), or undefined when it is one. */
export function fieldProblem(field: string): string | undefined {
  if (field.split('.').some((segment) => segment === ''))
    return `'${field}' is not a field path: keys joined by single dots, none empty (e.g. _rule.id, host.name)`;
  return undefined;
}

/** The value at `path` (a key, or keys joined by dots; a key with dots in it is tried whole first). */
function lookup(value: unknown, path: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, path)) return record[path];
  for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', dot + 1)) {
    const key = path.slice(0, dot);
    if (Object.hasOwn(record, key)) {
      const found = lookup(record[key], path.slice(dot + 1));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return undefined;
}

const missing: readonly string[] = [''];

/** The texts a field holds: one for a scalar, the scalar elements of an array, [""] when missing. */
function valuesAt(alert: unknown, field: string): readonly string[] {
  const value = lookup(alert, field);
  const texts = Array.isArray(value)
    ? value.flatMap((v) => scalarText(v) ?? [])
    : [scalarText(value)].flatMap((t) => t ?? []);
  return texts.length === 0 ? missing : texts;
}

function compileMatcher(m: SilenceMatcher): CompiledMatcher {
  const values = (alert: unknown) => valuesAt(alert, m.field);
  if (m.op === '=' || m.op === '!=') return { values, test: (v) => v === m.value, negated: m.op === '!=' };
  const re = matcherRegExp(m.value);
  return { values, test: (v) => re.test(v), negated: m.op === '!~' };
}

const compiled = new WeakMap<StoredSilence, CompiledSilence>();

/** A silence's times and matchers, compiled once per silence object (regular expressions included). */
function compiledOf(silence: StoredSilence): CompiledSilence {
  let c = compiled.get(silence);
  if (c === undefined) {
    c = {
      startsAt: Date.parse(silence.startsAt),
      endsAt: Date.parse(silence.endsAt),
      matchers: silence.matchers.map(compileMatcher),
    };
    compiled.set(silence, c);
  }
  return c;
}

/** Whether every matcher of the silence holds for the alert (at any time). */
export function silenceMatches(alert: object, silence: StoredSilence): boolean {
  return compiledOf(silence).matchers.every((m) => m.values(alert).some(m.test) !== m.negated);
}

/**
 * The ids of the silences active at `at` (ms since the epoch: start ≤ at < end) whose every
 * matcher holds for the alert, in the order given. A silence's regular expressions are compiled
 * the first time it is seen, not per alert: keep passing the same silence objects.
 */
export function silencesMatching(alert: object, silences: readonly StoredSilence[], at: number): string[] {
  const ids: string[] = [];
  for (const silence of silences) {
    const c = compiledOf(silence);
    if (at >= c.startsAt && at < c.endsAt && silenceMatches(alert, silence)) ids.push(silence.id);
  }
  return ids;
}
