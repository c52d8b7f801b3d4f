import type { AttackTable } from '@weir/contract';
import { attackTable, attackVersion } from '@weir/contract';
import type { LintDiagnostic, LintFix, LintSeverity } from '@weir/pdl';
import { closest, rangeAt, sortDiagnostics } from '@weir/pdl';
import type { Document, YAMLMap } from 'yaml';
import { isMap, isScalar, isSeq, parseAllDocuments } from 'yaml';
import { KNOWN_MODIFIERS, TIME_MODIFIERS } from './detection.ts';
import { childPath } from './errors.ts';
import { judgeTag } from './lintTags.ts';

/** A Sigma diagnostic: a LintDiagnostic of one YAML document (0-based) at a YAML path. */
export interface SigmaLintDiagnostic extends LintDiagnostic {
  readonly document: number;
  readonly path: string;
}

export interface SigmaLintOptions {
  /** The ATT&CK table tags are checked against (default: the one Weir ships, @weir/contract). */
  readonly attack?: AttackTable;
}

/** The codes of lintSigma (docs/detection-as-code.md, "Lint"). */
export const sigmaLintCodes = [
  'SIGMA_YAML',
  'SIGMA_MISSING_FIELD',
  'SIGMA_INVALID_VALUE',
  'SIGMA_UNKNOWN_MODIFIER',
  'SIGMA_TAG_FORMAT',
  'SIGMA_ATTACK_INVALID',
  'SIGMA_ATTACK_UNKNOWN',
  'SIGMA_ATTACK_RETIRED',
  'SIGMA_DEPRECATED',
] as const;

const MODIFIERS: ReadonlySet<string> = new Set([...KNOWN_MODIFIERS, ...TIME_MODIFIERS]);
const LEVELS = ['informational', 'low', 'medium', 'high', 'critical'];
const STATUSES = ['stable', 'test', 'experimental', 'deprecated', 'unsupported'];
const DATE = /^\d{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$/;
/** What each kind of document must hold (the specification's JSON schemas). */
const REQUIRED = {
  rule: ['title', 'logsource', 'detection'],
  correlation: ['title', 'correlation'],
  filter: ['title', 'logsource', 'filter'],
} as const;

/**
 * Lints a YAML text of Sigma documents (rules, correlation rules, filters) against the Sigma
 * specification: its required fields and values, modifiers, tags (ATT&CK ids checked against the
 * shipped table), and deprecated forms. Errors are what the specification forbids; a warning is
 * allowed but likely wrong or out of date. Never throws for bad input.
 */
export function lintSigma(text: string, options: SigmaLintOptions = {}): SigmaLintDiagnostic[] {
  const attack = options.attack ?? attackTable;
  const version =
    options.attack === undefined ? attackVersion : (/\bv\d+(?:\.\d+)?\b/.exec(attack.source)?.[0] ?? 'unknown');
  const out: SigmaLintDiagnostic[] = [];
  const docs = parseAllDocuments(text, { prettyErrors: false });
  (Array.isArray(docs) ? docs : [docs]).forEach((doc, index) => {
    const add = (
      node: { range?: [number, number, number] | null | undefined } | null | undefined,
      path: string,
      code: string,
      severity: LintSeverity,
      message: string,
      fix?: (range: ReturnType<typeof rangeAt>) => LintFix,
    ): void => {
      const r = node?.range ?? doc.contents?.range ?? [0, 0, 0];
      const range = rangeAt(text, r[0], r[1]);
      out.push({
        code,
        severity,
        message,
        ...range,
        document: index,
        path,
        ...(fix === undefined ? {} : { fix: fix(range) }),
      });
    };
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      add(
        { range: [e?.pos[0] ?? 0, e?.pos[1] ?? 0, 0] },
        '',
        'SIGMA_YAML',
        'error',
        `not valid YAML: ${e?.message ?? ''}`,
      );
      return;
    }
    try {
      lintDocument(doc, add, attack, version);
    } catch (error) {
      // the yaml library refuses to expand aliases beyond its limit (a "billion laughs" document) with a ReferenceError
      add(doc.contents, '', 'SIGMA_YAML', 'error', `not a usable YAML document: ${(error as Error).message}`);
    }
  });
  return sortDiagnostics(out);
}

type Add = (
  node: { range?: [number, number, number] | null | undefined } | null | undefined,
  path: string,
  code: string,
  severity: LintSeverity,
  message: string,
  fix?: (range: ReturnType<typeof rangeAt>) => LintFix,
) => void;

function lintDocument(doc: Document.Parsed, add: Add, attack: AttackTable, version: string): void {
  const root = doc.contents;
  if (!isMap(root)) {
    if (root !== null)
      add(root, '', 'SIGMA_MISSING_FIELD', 'error', 'a Sigma document must be a map (title, logsource, detection, …)');
    return;
  }
  const js = (doc.toJS() ?? {}) as Record<string, unknown>;
  const kind = js.correlation !== undefined ? 'correlation' : js.filter !== undefined ? 'filter' : 'rule';
  const missing = REQUIRED[kind].filter((k) => js[k] === undefined || js[k] === null);
  if (missing.length > 0)
    add(
      root,
      '',
      'SIGMA_MISSING_FIELD',
      'error',
      `a Sigma ${kind} needs ${missing.map((k) => `'${k}'`).join(', ')}: missing`,
    );

  const pair = (key: string) => root.items.find((p) => isScalar(p.key) && p.key.value === key);
  const section = (key: string, required: readonly string[]): void => {
    const p = pair(key);
    if (p === undefined) return;
    if (!isMap(p.value)) return add(p.value ?? p.key, key, 'SIGMA_INVALID_VALUE', 'error', `'${key}' must be a map`);
    const inner = p.value.toJSON() as Record<string, unknown>;
    const absent = required.filter((k) => inner[k] === undefined || inner[k] === null);
    if (absent.length > 0)
      add(
        p.key,
        key,
        'SIGMA_MISSING_FIELD',
        'error',
        `'${key}' needs ${absent.map((k) => `'${k}'`).join(', ')}: missing`,
      );
  };
  if (kind === 'rule') section('detection', ['condition']);
  if (kind === 'filter') section('filter', ['rules', 'condition']);
  if (kind === 'correlation') section('correlation', ['type', 'rules', 'timespan']);

  const scalarValue = (key: string, allowed: readonly string[], code: string, severity: LintSeverity): void => {
    const p = pair(key);
    if (p === undefined || !isScalar(p.value)) return;
    const v = p.value.value;
    if (typeof v !== 'string' || !allowed.includes(v))
      add(p.value, key, code, severity, `${key} '${String(v)}' is not one of ${allowed.join(', ')}`);
  };
  scalarValue('level', LEVELS, 'SIGMA_INVALID_VALUE', 'error');
  scalarValue('status', STATUSES, 'SIGMA_INVALID_VALUE', 'error');
  if (js.status === 'deprecated')
    add(
      pair('status')?.value,
      'status',
      'SIGMA_DEPRECATED',
      'warning',
      'the rule is deprecated: replaced by or covered by another one (see its related rules)',
    );

  for (const key of ['date', 'modified']) {
    const p = pair(key);
    if (p === undefined || !isScalar(p.value) || typeof p.value.value !== 'string' || DATE.test(p.value.value))
      continue;
    const written = p.value.value;
    const dashed = written.replace(/\//g, '-');
    if (DATE.test(dashed))
      add(
        p.value,
        key,
        'SIGMA_DEPRECATED',
        'warning',
        `${key} '${written}' uses slashes, an old form: write YYYY-MM-DD`,
        (range) => ({
          title: `Write ${dashed}`,
          edits: [{ range, text: dashed }],
        }),
      );
    else add(p.value, key, 'SIGMA_INVALID_VALUE', 'error', `${key} '${written}' is not a date YYYY-MM-DD`);
  }

  const tags = pair('tags')?.value;
  if (isSeq(tags))
    tags.items.forEach((item, i) => {
      if (!isScalar(item) || typeof item.value !== 'string') return;
      const verdict = judgeTag(item.value, attack, version);
      const path = childPath('tags', i);
      const plain = item.type === 'PLAIN';
      const fixWith = (fixed: string | undefined) =>
        fixed === undefined || !plain
          ? undefined
          : (range: ReturnType<typeof rangeAt>) => ({ title: `Write ${fixed}`, edits: [{ range, text: fixed }] });
      if (verdict.kind === 'format')
        add(item, path, 'SIGMA_TAG_FORMAT', 'error', verdict.message, fixWith(verdict.fixed));
      else if (verdict.kind === 'invalid')
        add(item, path, 'SIGMA_ATTACK_INVALID', 'error', verdict.message, fixWith(verdict.fixed));
      else if (verdict.kind === 'unknown') add(item, path, 'SIGMA_ATTACK_UNKNOWN', 'warning', verdict.message);
      else if (verdict.kind === 'retired') add(item, path, 'SIGMA_ATTACK_RETIRED', 'warning', verdict.message);
    });

  const searches = kind === 'rule' ? pair('detection')?.value : kind === 'filter' ? pair('filter')?.value : undefined;
  const base = kind === 'rule' ? 'detection' : 'filter';
  if (isMap(searches)) {
    for (const s of searches.items) {
      if (!isScalar(s.key)) continue;
      const name = String(s.key.value);
      const path = childPath(base, name);
      if (name === 'timeframe')
        add(
          s.key,
          path,
          'SIGMA_DEPRECATED',
          'warning',
          "'timeframe' belongs to the deprecated aggregation conditions: write a correlation rule",
        );
      if (name === 'condition') {
        const conditions = isSeq(s.value) ? s.value.items : [s.value];
        for (const c of conditions)
          if (
            isScalar(c) &&
            typeof c.value === 'string' &&
            (/\|\s*(count|min|max|avg|sum)\s*\(/.test(c.value) || /\bnear\b/.test(c.value))
          )
            add(
              c,
              path,
              'SIGMA_DEPRECATED',
              'warning',
              'aggregation in the condition (| count() …, near) is deprecated: write a correlation rule',
            );
      }
      if (name === 'condition' || name === 'timeframe' || name === 'rules') continue;
      const value = s.value as unknown;
      const maps: YAMLMap[] = isMap(value)
        ? [value]
        : isSeq(value)
          ? (value.items as unknown[]).filter((item): item is YAMLMap => isMap(item))
          : [];
      for (const m of maps)
        for (const field of m.items) {
          if (!isScalar(field.key) || typeof field.key.value !== 'string') continue;
          const key = field.key.value;
          const [, ...modifiers] = key.split('|');
          for (const modifier of modifiers) {
            if (MODIFIERS.has(modifier)) continue;
            const near = closest(modifier, MODIFIERS);
            const fixed =
              near === undefined
                ? undefined
                : key
                    .split('|')
                    .map((part: string, i: number) => (i > 0 && part === modifier ? near : part))
                    .join('|');
            add(
              field.key,
              childPath(path, key),
              'SIGMA_UNKNOWN_MODIFIER',
              'error',
              `unknown modifier '${modifier}'${near === undefined ? '' : ` (did you mean '${near}'?)`}`,
              fixed === undefined || field.key.type !== 'PLAIN'
                ? undefined
                : (range) => ({ title: `Write ${fixed}`, edits: [{ range, text: fixed }] }),
            );
          }
        }
    }
  }
}
