import type { LookupStage } from './ast.ts';
import type { JsonObject } from './values.ts';
import { cloneJson, getPath, setPath, valueKey } from './values.ts';

/** A lookup table: rows of columns. Pass a new rows array, or bump `version`, when the rows change. */
export interface LookupTable {
  readonly version?: string | number;
  readonly rows: readonly Readonly<Record<string, unknown>>[];
}

/**
 * A lookup table that finds its own rows (e.g. one held once per node and shared by the worker
 * threads: the engine's rules/shared-lookup.ts): `first` gives the first row whose cell of `column`
 * (`lookupCell`) has the value key `key` (`valueKey`), as the index of a rows table would.
 */
export interface IndexedLookupTable {
  readonly version?: string | number;
  first(column: string, path: readonly string[], key: string): Readonly<Record<string, unknown>> | undefined;
}

/** Supplies lookup tables by id; asked on every event, so an updated table applies at once. */
export interface LookupResolver {
  get(id: string): LookupTable | IndexedLookupTable | undefined;
}

interface TableIndex {
  readonly version: string | number | undefined;
  /** column -> value key -> first row with that value */
  readonly columns: Map<string, Map<string, Readonly<Record<string, unknown>>>>;
}

/**
 * Indexes are built once per rows array and version, and shared by every stage and rule; a
 * resolver may wrap the same rows in a new table object on every call.
 */
const indexes = new WeakMap<object, TableIndex>();

/** A row's cell of a lookup column: the key `column` itself when the row has it, else the dotted path into the row. */
export function lookupCell(row: Readonly<Record<string, unknown>>, column: string, path: readonly string[]): unknown {
  return Object.hasOwn(row, column) ? row[column] : getPath(row as JsonObject, path);
}

function columnIndex(
  table: LookupTable,
  column: string,
  path: readonly string[],
): Map<string, Readonly<Record<string, unknown>>> {
  let index = indexes.get(table.rows);
  if (index === undefined || index.version !== table.version) {
    index = { version: table.version, columns: new Map() };
    indexes.set(table.rows, index);
  }
  let rows = index.columns.get(column);
  if (rows === undefined) {
    rows = new Map();
    for (const row of table.rows) {
      const key = valueKey(lookupCell(row, column, path));
      if (key !== undefined && key !== 'null' && !rows.has(key)) rows.set(key, row);
    }
    index.columns.set(column, rows);
  }
  return rows;
}

/** Compiles a lookup stage (pdl.md, "lookup"): first row whose column `=`-equals the event value. */
export function compileLookup(
  node: LookupStage,
  resolver: LookupResolver | undefined,
): (event: JsonObject) => JsonObject {
  const id = node.lookupId.value;
  const columnPath = node.lookupField.path;
  const column = columnPath.join('.');
  const eventPath = (node.eventField ?? node.lookupField).path;
  const outputs = node.outputs.map((o) => ({
    column: o.column.path.join('.'),
    columnPath: o.column.path,
    target: (o.as ?? o.column).path,
  }));
  return (event) => {
    const table = resolver?.get(id);
    if (table === undefined) return event;
    const indexed = 'first' in table ? table : undefined;
    const rows = 'first' in table ? undefined : columnIndex(table, column, columnPath);
    const value = getPath(event, eventPath);
    let row: Readonly<Record<string, unknown>> | undefined;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length && row === undefined; i++) {
        const key = valueKey(value[i]);
        if (key !== undefined) row = rows ? rows.get(key) : indexed!.first(column, columnPath, key);
      }
    } else {
      const key = valueKey(value);
      if (key !== undefined) row = rows ? rows.get(key) : indexed!.first(column, columnPath, key);
    }
    if (row === undefined) return event;
    for (const output of outputs) {
      const found = lookupCell(row, output.column, output.columnPath);
      if (found !== undefined) setPath(event, output.target, cloneJson(found));
    }
    return event;
  };
}
