import type {
  EvalStage,
  FieldsStage,
  FlattenStage,
  LookupStage,
  ParseCsvStage,
  ParseKvStage,
  RenameStage,
  RexStage,
} from './ast.ts';
import { syntaxErrorAt } from './compileErrors.ts';
import type { ExpressionEnvironment } from './expression.ts';
import { compileExpression } from './expression.ts';
import type { LookupResolver } from './lookup.ts';
import { compileLookup } from './lookup.ts';
import { UserRegexError, compileUserRegex } from './regex.ts';
import type { UserRegex } from './regex.ts';
import { parseKeyValues, splitCsv } from './textParsers.ts';
import type { JsonObject } from './values.ts';
import { cloneJson, deletePath, fromText, getPath, isObject, setOwn, setPath } from './values.ts';

/**
 * The stages that reshape one event. Each gets an event it may modify (the compiled pipeline
 * copies the caller's event once, before the first such stage) and returns the result.
 */
export type Transform = (event: JsonObject) => JsonObject;

export interface TransformEnvironment extends ExpressionEnvironment {
  readonly lookups: LookupResolver | undefined;
}

/** eval: assignments run left to right; a later one sees the earlier ones. */
export function compileEval(node: EvalStage, env: TransformEnvironment): Transform {
  const targets = node.assignments.map((a) => a.target.path);
  const values = node.assignments.map((a) => compileExpression(a.value, env));
  return (event) => {
    for (let i = 0; i < values.length; i++) {
      const value = (values[i] as (e: JsonObject) => unknown)(event);
      // Copy objects so two fields never share (and later co-mutate) one value.
      setPath(
        event,
        targets[i] as readonly string[],
        typeof value === 'object' && value !== null ? cloneJson(value) : value,
      );
    }
    return event;
  };
}

/** fields keep (with parents) / fields remove (parents stay, possibly empty). */
export function compileFields(node: FieldsStage): Transform {
  const paths = node.fields.map((f) => f.path);
  if (node.mode === 'remove') {
    return (event) => {
      for (const path of paths) deletePath(event, path);
      return event;
    };
  }
  return (event) => {
    const kept: JsonObject = {};
    for (const path of paths) {
      const value = getPath(event, path);
      if (value !== undefined) setPath(kept, path, value);
    }
    return kept;
  };
}

/** rename: a missing source is a no-op; an existing target is overwritten. */
export function compileRename(node: RenameStage): Transform {
  const pairs = node.renames.map((r) => [r.from.path, r.to.path] as const);
  return (event) => {
    for (const [from, to] of pairs) {
      const value = getPath(event, from);
      if (value === undefined) continue;
      deletePath(event, from);
      setPath(event, to, value);
    }
    return event;
  };
}

function flattenInto(out: JsonObject, key: string, value: unknown): void {
  if (Array.isArray(value)) {
    if (value.length === 0) setOwn(out, key, []);
    for (let i = 0; i < value.length; i++) flattenInto(out, `${key}_${i}`, value[i]);
  } else if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) setOwn(out, key, {});
    for (const k of keys) flattenInto(out, `${key}_${k}`, value[k]);
  } else {
    setOwn(out, key, value);
  }
}

/** flatten: `a.b` -> `a_b`, arrays -> `list_0`; empty objects and arrays are kept as they are. */
export function compileFlatten(_node: FlattenStage): Transform {
  return (event) => {
    const out: JsonObject = {};
    for (const key of Object.keys(event)) flattenInto(out, key, event[key]);
    return out;
  };
}

export function compileLookupStage(node: LookupStage, env: TransformEnvironment): Transform {
  if (env.lookups !== undefined && env.lookups.get(node.lookupId.value) === undefined) {
    throw syntaxErrorAt(
      node.lookupId.span,
      `unknown lookup '${node.lookupId.value}'`,
      'the id of an existing lookup',
      'UNKNOWN_LOOKUP',
    );
  }
  return compileLookup(node, env.lookups);
}

function regexAt(pattern: string, node: RexStage): UserRegex {
  try {
    return compileUserRegex(pattern);
  } catch (error) {
    if (error instanceof UserRegexError)
      throw syntaxErrorAt(node.span, `invalid regular expression: ${error.reason}`, undefined, 'INVALID_REGEX');
    throw error;
  }
}

/** rex: one top-level field per named group of the first match; numerals become numbers. */
export function compileRex(node: RexStage): Transform {
  const path = node.field.path;
  const regex = regexAt(node.pattern, node);
  if (regex.groupNames.length === 0) throw syntaxErrorAt(node.span, 'the rex regular expression has no named group');
  return (event) => {
    const value = getPath(event, path);
    if (typeof value !== 'string') return event;
    const groups = regex.namedGroups(value);
    if (groups === null) return event;
    for (const name of Object.keys(groups)) setOwn(event, name, fromText(groups[name] as string));
    return event;
  };
}

function setFromText(event: JsonObject, key: string, text: string): void {
  setOwn(event, key, fromText(text));
}

/** parse_kv: keys become top-level fields; numerals become numbers. */
export function compileParseKv(node: ParseKvStage): Transform {
  const path = node.field.path;
  const delimiter = node.delimiter;
  return (event) => {
    const value = getPath(event, path);
    if (typeof value === 'string') parseKeyValues(value, delimiter, setFromText, event);
    return event;
  };
}

/**
 * The names of a parse_csv header: separated by commas whatever the data's delimiter (the
 * original's form, `header="a, b, c" delimiter=";"`); a header without a comma that holds the data
 * delimiter is split on it (Weir's earlier form, `header="a;b;c" delimiter=";"`).
 */
export function headerNames(header: string, delimiter: string): string[] {
  const separator = !header.includes(',') && header.includes(delimiter) ? delimiter : ',';
  return splitCsv(header, separator);
}

/** parse_csv: cells assigned to the header names (top-level fields) in order; numerals become numbers. */
export function compileParseCsv(node: ParseCsvStage): Transform {
  const path = node.field.path;
  const delimiter = node.delimiter;
  const header = headerNames(node.header, delimiter);
  return (event) => {
    const value = getPath(event, path);
    if (typeof value !== 'string') return event;
    const cells = splitCsv(value, delimiter);
    const count = Math.min(cells.length, header.length);
    for (let i = 0; i < count; i++) {
      const name = header[i] as string;
      if (name !== '') setOwn(event, name, fromText(cells[i] as string));
    }
    return event;
  };
}
