/**
 * The entity index of the alert store (docs/alerts.md, "The alert store and triage"): for each
 * alert, the text of every field of its event that `field.<path>=` and `by=field:<path>` can name,
 * as SQLite reads it (`CAST(json_extract(record, path) AS TEXT)`), so that a filter or a group by a
 * field is an index lookup instead of a scan, with exactly the answer of the scan.
 *
 * Indexed: fields up to `maxEntityDepth` keys deep whose first key does not start with `_` (Weir's
 * own fields: `_raw`, `_rule`, `_alert`, … are scanned), each key made of the characters a dotted
 * path allows. A string of at most `maxEntityValue` characters is itself, a boolean `1`/`0` (as
 * SQLite reads JSON `true`/`false`), a number SQLite's own text of it; `null` has no entry (the
 * scan's `NULL` never equals a value). A path that ever holds something else (an object, an array,
 * a longer string) is recorded as **unindexed**, and every query of it scans, as before.
 */

/** Deepest indexed path, in keys (`a.b.c`). */
export const maxEntityDepth = 3;
/** Longest indexed string value, in UTF-16 units. */
export const maxEntityValue = 256;

const keyPattern = /^[A-Za-z0-9_@$-]+$/;

export interface AlertEntities {
  /** Path and text of each string and boolean field. */
  readonly texts: [string, string][];
  /** Paths holding a number (their text is SQLite's: the index asks it). */
  readonly numbers: string[];
  /** Paths holding a value the index does not keep (object, array, long string). */
  readonly unindexed: string[];
}

/** The indexed fields of an alert record (the parsed JSON of the alerts topic). */
export function alertEntities(record: Record<string, unknown>): AlertEntities {
  const found: AlertEntities = { texts: [], numbers: [], unindexed: [] };
  walk(record, '', 1, found);
  return found;
}

function walk(object: Record<string, unknown>, prefix: string, depth: number, found: AlertEntities): void {
  for (const key in object) {
    if (!keyPattern.test(key) || (depth === 1 && key.startsWith('_'))) continue;
    const value = object[key];
    const path = prefix + key;
    if (typeof value === 'string') {
      if (value.length <= maxEntityValue) found.texts.push([path, value]);
      else found.unindexed.push(path);
    } else if (typeof value === 'boolean') found.texts.push([path, value ? '1' : '0']);
    else if (typeof value === 'number') found.numbers.push(path);
    else if (value !== null && typeof value === 'object') {
      found.unindexed.push(path);
      if (!Array.isArray(value) && depth < maxEntityDepth)
        walk(value as Record<string, unknown>, `${path}.`, depth + 1, found);
    }
  }
}

/** Whether a dotted path can be in the entity index at all (depth and first key); see `unindexed` too. */
export function indexablePath(path: string): boolean {
  return !path.startsWith('_') && path.split('.').length <= maxEntityDepth;
}
