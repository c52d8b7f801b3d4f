import { parse } from '@weir/pdl';

/**
 * Why a converted rule may never match a topic's events: the event fields its PDL reads that no
 * recent event of the topic has (a rule mapped to `Event.EventData.Image` on flat events that
 * hold `Image`). Pure: the page reads the events.
 */

/** The event fields a PDL reads (dot-joined paths, in first-use order); Weir's own `_rule`, `_aggregation`… left out; none when it does not parse. */
export function ruleFields(pdl: string): string[] {
  let tree: unknown;
  try {
    tree = parse(pdl);
  } catch {
    return [];
  }
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const n of node) walk(n);
    else if (node !== null && typeof node === 'object') {
      const n = node as { kind?: unknown; path?: unknown };
      if (n.kind === 'Field' && Array.isArray(n.path)) {
        const path = n.path as string[];
        if (!path[0]?.startsWith('_')) out.add(path.join('.'));
        return;
      }
      for (const [key, value] of Object.entries(node)) if (key !== 'span') walk(value);
    }
  };
  walk(tree);
  return [...out];
}

/** Every path the events have (`Event`, `Event.System`, `Event.System.EventID`, …), objects walked, arrays not. */
export function eventPaths(events: readonly unknown[]): Set<string> {
  const out = new Set<string>();
  const walk = (value: unknown, prefix: string): void => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, v] of Object.entries(value)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      out.add(path);
      walk(v, path);
    }
  };
  for (const e of events) walk(e, '');
  return out;
}

export interface FieldHint {
  readonly rule: string;
  /** The rule's fields that no sampled event has. */
  readonly missing: readonly string[];
  /** How many fields the rule reads. */
  readonly fields: number;
  /** For a missing field, a path the events do have with the same last name (`Event.EventData.Image` → `Image`). */
  readonly similar: readonly { readonly field: string; readonly present: string }[];
}

/**
 * For each rule whose fields include some that never occur in the events, which ones, and where
 * the events hold a field of the same name. A field written two ways (Defender's `SourceName` and
 * `Source Name`, docs/sigma.md) counts as present when one spelling is.
 */
export function fieldHints(
  rules: readonly { readonly id: string; readonly pdl: string }[],
  events: readonly unknown[],
): FieldHint[] {
  const paths = eventPaths(events);
  const byLastName = new Map<string, string>();
  for (const p of paths) {
    const last = lastName(p);
    if (!byLastName.has(last)) byLastName.set(last, p);
  }
  const hints: FieldHint[] = [];
  for (const rule of rules) {
    const fields = ruleFields(rule.pdl);
    const present = (f: string) =>
      paths.has(f) ||
      paths.has(unspaced(f)) ||
      fields.some((g) => g !== f && unspaced(g) === unspaced(f) && paths.has(g));
    const missing = fields.filter((f) => !present(f));
    // Of two spellings both missing, name the one without spaces (Sigma's).
    const named = missing.filter((f) => !(f !== unspaced(f) && missing.includes(unspaced(f))));
    if (named.length === 0) continue;
    const similar = named.flatMap((field) => {
      const found = byLastName.get(lastName(field));
      return found === undefined || found === field ? [] : [{ field, present: found }];
    });
    hints.push({ rule: rule.id, missing: named, fields: fields.length, similar });
  }
  return hints;
}

const lastName = (path: string): string => path.slice(path.lastIndexOf('.') + 1).toLowerCase();
const unspaced = (path: string): string => path.replace(/ /g, '');
