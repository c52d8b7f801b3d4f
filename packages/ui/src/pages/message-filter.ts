import type { ConsumedMessage, Lookup } from '@weir/contract';
import { compile, isPdlSyntaxError, type LookupResolver } from '@weir/pdl';

/**
 * The message browser's filters. Both keep per-message work in WeakMaps (the lower-case text, the
 * parsed event), so filtering 100,000 held messages again after a keystroke or a new batch parses
 * each message once, not once per keystroke.
 */
export type MessagePredicate = (m: ConsumedMessage) => boolean;
export type PdlFilter =
  | { readonly ok: true; readonly test: MessagePredicate }
  | {
      readonly ok: false;
      readonly message: string;
      readonly line?: number;
      readonly column?: number;
      readonly excerpt?: string;
    };

const texts = new WeakMap<ConsumedMessage, string>();
const events = new WeakMap<ConsumedMessage, Record<string, unknown>>();

const asText = (v: unknown): string => (v == null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** Key or value contains the text (any case). */
export function textFilter(text: string): MessagePredicate | undefined {
  const needle = text.toLowerCase();
  if (!needle) return undefined;
  return (m) => {
    let t = texts.get(m);
    if (t === undefined) texts.set(m, (t = `${asText(m.key)}\n${asText(m.value)}`.toLowerCase()));
    return t.includes(needle);
  };
}

/**
 * The event a PDL filter sees for a message: the value when it is a JSON object (or text holding
 * one), else `{"_raw": <the value as text>}`.
 */
export function messageEvent(m: ConsumedMessage): Record<string, unknown> {
  let e = events.get(m);
  if (e) return e;
  const v = m.value;
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) e = v as Record<string, unknown>;
  else if (typeof v === 'string' && v.trimStart().startsWith('{')) {
    try {
      const parsed = JSON.parse(v) as unknown;
      e =
        parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : { _raw: v };
    } catch {
      e = { _raw: v };
    }
  } else e = { _raw: asText(v) };
  events.set(m, e);
  return e;
}

/**
 * Compiles a PDL query in the browser with the PDL package itself (the engine's parser and
 * evaluator, so the filter means what a rule means): a message is kept when the query has an output
 * for its event. Correlation stages are refused (they need a stream, not one message); lookups are
 * the stored tables when given. A syntax or compile error comes back with its line and column.
 */
export function pdlFilter(pdl: string, lookups?: readonly Lookup[]): PdlFilter {
  const resolver: LookupResolver | undefined = lookups && {
    get: (id) => {
      const l = lookups.find((x) => x.id === id);
      return l ? { rows: l.content } : undefined;
    },
  };
  try {
    const program = compile(pdl, resolver ? { lookups: resolver } : {});
    if (program.hasCorrelation) {
      return {
        ok: false,
        message:
          'A message filter cannot hold correlation stages (event_count, sequence, …): it looks at one message at a time. Test correlations in the rule editor.',
      };
    }
    return {
      ok: true,
      test: (m) =>
        program.run(messageEvent(m), m.timestamp === undefined ? undefined : { timestamp: m.timestamp }) !== null,
    };
  } catch (err) {
    if (isPdlSyntaxError(err))
      return { ok: false, message: err.detail, line: err.line, column: err.column, excerpt: err.excerpt };
    return { ok: false, message: (err as Error).message };
  }
}

/**
 * Filters a growing buffer incrementally: each call tests only the messages appended since the
 * last one, so a live tail with a filter costs the new messages per frame, not the whole buffer.
 * It starts over when the buffer, the predicate, or the count of messages dropped from the
 * buffer's head changes. The returned array is reused while it only grows.
 */
export class IncrementalFilter {
  #source: readonly ConsumedMessage[] | undefined;
  #predicate: MessagePredicate | undefined;
  #dropped = -1;
  #processed = 0;
  #out: ConsumedMessage[] = [];

  apply(source: readonly ConsumedMessage[], predicate: MessagePredicate, dropped: number): readonly ConsumedMessage[] {
    if (
      source !== this.#source ||
      predicate !== this.#predicate ||
      dropped !== this.#dropped ||
      source.length < this.#processed
    ) {
      this.#source = source;
      this.#predicate = predicate;
      this.#dropped = dropped;
      this.#processed = 0;
      this.#out = [];
    }
    for (let i = this.#processed; i < source.length; i++) if (predicate(source[i]!)) this.#out.push(source[i]!);
    this.#processed = source.length;
    return this.#out;
  }
}
