import { isObject } from '@weir/pdl';
import type { FieldChange, LineChange } from '@weir/contract';

/** The path of the whole record, when one side is not an object (a deletion's version holds none). */
export const wholeRecord = '(record)';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return isObject(v) && !Array.isArray(v);
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path === wholeRecord ? '' : path}[${key}]`;
  const name = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  return path === wholeRecord ? name : `${path}.${name}`;
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => equal(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && equal(a[k], b[k]));
  }
  return false;
}

/**
 * The fields that differ between two stored records, as paths (`name`, `output[0].name`) with the
 * value before and after; a field only one side has lacks `before` or `after`. Objects and arrays
 * are compared member by member (arrays by position); anything else by value. In the order of the
 * fields of `before`, then the fields only `after` has.
 */
export function diffRecords(before: unknown, after: unknown, path = wholeRecord): FieldChange[] {
  if (equal(before, after)) return [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...Object.keys(before), ...Object.keys(after).filter((k) => !(k in before))];
    return keys.flatMap((key) => {
      const p = join(path, key);
      if (!(key in after)) return [{ path: p, before: before[key] }];
      if (!(key in before)) return [{ path: p, after: after[key] }];
      return diffRecords(before[key], after[key], p);
    });
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes: FieldChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      const p = join(path, i);
      if (i >= after.length) changes.push({ path: p, before: before[i] });
      else if (i >= before.length) changes.push({ path: p, after: after[i] });
      else changes.push(...diffRecords(before[i], after[i], p));
    }
    return changes;
  }
  return [
    {
      path,
      ...(before === undefined ? {} : { before }),
      ...(after === undefined ? {} : { after }),
    },
  ];
}

/** Beyond this many cells of the comparison table, the changed middle is shown as removed then added. */
const maxTableCells = 4_000_000;

/**
 * A line diff of two texts (a rule's PDL): every line once, kept (' '), removed ('-') or added
 * ('+'), in the order a unified diff shows them; the longest common subsequence of lines is kept.
 */
export function diffLines(before: string, after: string): LineChange[] {
  // An empty text (a deletion's side) has no lines.
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const kept = (text: string): LineChange => ({ op: ' ', text });
  const middle = middleDiff(a.slice(start, endA), b.slice(start, endB));
  return [...a.slice(0, start).map(kept), ...middle, ...a.slice(endA).map(kept)];
}

function middleDiff(a: readonly string[], b: readonly string[]): LineChange[] {
  const removed = (text: string): LineChange => ({ op: '-', text });
  const added = (text: string): LineChange => ({ op: '+', text });
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > maxTableCells) return [...a.map(removed), ...b.map(added)];
  // lcs[i][j]: the length of the longest common subsequence of a[i..] and b[j..].
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const out: LineChange[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) out.push(removed(a[i++]!));
    else out.push(added(b[j++]!));
  }
  while (i < n) out.push(removed(a[i++]!));
  while (j < m) out.push(added(b[j++]!));
  return out;
}
