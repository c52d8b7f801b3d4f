import { isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml';
import type { BacktestResult } from './backtest-run.ts';
import { UsageError } from './errors.ts';

/** One rule's expected match count: `exactly`, or `atLeast` and/or `atMost`. */
export interface Expectation {
  readonly rule: string;
  readonly exactly?: number;
  readonly atLeast?: number;
  readonly atMost?: number;
  /** `file:line:column` of the rule id in the expectations file. */
  readonly where: string;
}

export interface Expectations {
  readonly file: string;
  /** False: a rule without an expectation that matches at all is a failure. Default true. */
  readonly othersMayFire: boolean;
  readonly rules: readonly Expectation[];
}

/** One checked expectation (a JUnit testcase). */
export interface CheckOutcome {
  readonly name: string;
  readonly passed: boolean;
  /** Why it failed: expected against actual. */
  readonly message?: string;
}

const bounds = ['exactly', 'atLeast', 'atMost'] as const;
type Bound = (typeof bounds)[number];
const boundWords: Record<Bound, string> = { exactly: 'exactly', atLeast: 'at least', atMost: 'at most' };

/**
 * Parses an expectations file (docs/detection-as-code.md, "Backtests"):
 *
 *     othersMayFire: false        # optional, default true
 *     rules:
 *       root-login: { exactly: 2 }
 *       brute-force: { atLeast: 1, atMost: 3 }
 *       quiet-rule: 0             # a number alone: exactly
 *
 * Every mistake is a UsageError naming the file, line and column: invalid YAML, an unknown key, a
 * count that is not a whole number from 0, `exactly` with a bound, and a rule id that is not one of
 * `ruleIds` (the rules the backtest loaded).
 */
export function parseExpectations(text: string, file: string, ruleIds: readonly string[]): Expectations {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  const at = (node: Node | null | undefined): string => {
    const offset = node?.range?.[0];
    if (offset === undefined) return file;
    const { line, col } = lineCounter.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const pos = e.linePos?.[0];
    throw new UsageError(`${file}${pos ? `:${pos.line}:${pos.col}` : ''}: not valid YAML: ${e.message.split('\n')[0]}`);
  }
  const root = doc.contents;
  if (!isMap(root)) throw new UsageError(`${at(root)}: an expectations file is a map with rules (and othersMayFire)`);
  let othersMayFire = true;
  let rulesNode: Node | null = null;
  for (const pair of root.items) {
    const key = pair.key as Node;
    const name = isScalar(key) ? String(key.value) : '';
    if (name === 'othersMayFire') {
      const v = pair.value as Node | null;
      if (!isScalar(v) || typeof v.value !== 'boolean')
        throw new UsageError(`${at(v ?? key)}: othersMayFire must be true or false`);
      othersMayFire = v.value;
    } else if (name === 'rules') rulesNode = pair.value as Node | null;
    else throw new UsageError(`${at(key)}: unknown key '${name}' (an expectations file has rules and othersMayFire)`);
  }
  if (!isMap(rulesNode))
    throw new UsageError(`${at(rulesNode ?? root)}: rules must be a map of rule id to expected matches`);
  const known = new Set(ruleIds);
  const rules = rulesNode.items.map((pair): Expectation => {
    const key = pair.key as Node;
    const rule = isScalar(key) ? String(key.value) : '';
    const where = at(key);
    if (!known.has(rule)) {
      const shown = ruleIds.length > 10 ? `${ruleIds.slice(0, 10).join(', ')}, …` : ruleIds.join(', ');
      throw new UsageError(
        `${where}: unknown rule '${rule}': no rule of --rules has this id (${ruleIds.length} rule(s): ${shown || 'none'})`,
      );
    }
    const value = pair.value as Node | null;
    if (isScalar(value)) return { rule, where, exactly: count(value, `${rule}`, at) };
    if (!isMap(value))
      throw new UsageError(`${at(value ?? key)}: rule '${rule}': give exactly, atLeast and/or atMost (or a number)`);
    const found: Partial<Record<Bound, number>> = {};
    for (const p of value.items) {
      const k = p.key as Node;
      const b = isScalar(k) ? String(k.value) : '';
      if (!(bounds as readonly string[]).includes(b))
        throw new UsageError(`${at(k)}: rule '${rule}': unknown key '${b}' (one of ${bounds.join(', ')})`);
      found[b as Bound] = count(p.value as Node | null, `${rule}.${b}`, at, k);
    }
    if (found.exactly !== undefined && (found.atLeast !== undefined || found.atMost !== undefined))
      throw new UsageError(`${at(value)}: rule '${rule}': exactly cannot go with atLeast or atMost`);
    if (found.exactly === undefined && found.atLeast === undefined && found.atMost === undefined)
      throw new UsageError(`${at(value)}: rule '${rule}': give exactly, atLeast or atMost`);
    if (found.atLeast !== undefined && found.atMost !== undefined && found.atLeast > found.atMost)
      throw new UsageError(
        `${at(value)}: rule '${rule}': atLeast ${found.atLeast} is more than atMost ${found.atMost}`,
      );
    return { rule, where, ...found };
  });
  return { file, othersMayFire, rules };
}

function count(node: Node | null, what: string, at: (n: Node | null | undefined) => string, key?: Node): number {
  const v = isScalar(node) ? node.value : undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new UsageError(
      `${at(node ?? key)}: ${what} must be a whole number from 0, found ${isScalar(node) ? JSON.stringify(node.value) : 'nothing'}`,
    );
  return v;
}

/** What an expectation says, in words: `exactly 2`, `at least 1 and at most 3`. */
export function describeExpectation(e: Expectation): string {
  return bounds
    .filter((b) => e[b] !== undefined)
    .map((b) => `${boundWords[b]} ${e[b]}`)
    .join(' and ');
}

/** Checks every expectation against the result; with `othersMayFire: false`, one more check that no other rule matched. */
export function checkExpectations(expectations: Expectations, result: BacktestResult): CheckOutcome[] {
  const matches = new Map(result.rules.map((r) => [r.id, r.matches]));
  const outcomes: CheckOutcome[] = expectations.rules.map((e) => {
    const actual = matches.get(e.rule) ?? 0;
    const ok =
      (e.exactly === undefined || actual === e.exactly) &&
      (e.atLeast === undefined || actual >= e.atLeast) &&
      (e.atMost === undefined || actual <= e.atMost);
    const expected = describeExpectation(e);
    const name = `rule ${e.rule}: ${expected}`;
    return ok
      ? { name, passed: true }
      : { name, passed: false, message: `expected ${expected} match(es), found ${actual} (${e.where})` };
  });
  if (!expectations.othersMayFire) {
    const listed = new Set(expectations.rules.map((e) => e.rule));
    const others = result.rules.filter((r) => !listed.has(r.id) && r.matches > 0);
    const name = 'no other rule fires (othersMayFire: false)';
    outcomes.push(
      others.length === 0
        ? { name, passed: true }
        : {
            name,
            passed: false,
            message: `rules without an expectation matched: ${others.map((r) => `${r.id} (${r.matches})`).join(', ')}`,
          },
    );
  }
  return outcomes;
}
