import type { LineChange, VersionSummary } from '@weir/contract';

/** One side of a row of the side-by-side PDL diff: the line's number in its version and its text. */
export interface DiffSide {
  readonly line: number;
  readonly text: string;
}

/**
 * A row of the side-by-side diff: `kept` has both sides (the same text); `changed` pairs a removed
 * line (left) with an added one (right); either side is absent where one version has fewer lines.
 */
export interface DiffRow {
  readonly kind: 'kept' | 'changed';
  readonly left?: DiffSide;
  readonly right?: DiffSide;
}

/**
 * Turns the API's unified line diff (`pdl` of a version diff) into side-by-side rows: kept lines on
 * both sides; each run of removed and added lines side by side, the n-th removed beside the n-th
 * added, the longer run's rest beside nothing. Line numbers count each version's own lines.
 */
export function sideBySide(lines: readonly LineChange[]): DiffRow[] {
  const rows: DiffRow[] = [];
  let left = 0;
  let right = 0;
  let removed: DiffSide[] = [];
  let added: DiffSide[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++)
      rows.push({ kind: 'changed', left: removed[i], right: added[i] });
    removed = [];
    added = [];
  };
  for (const l of lines) {
    if (l.op === '-') removed.push({ line: ++left, text: l.text });
    else if (l.op === '+') added.push({ line: ++right, text: l.text });
    else {
      flush();
      rows.push({ kind: 'kept', left: { line: ++left, text: l.text }, right: { line: ++right, text: l.text } });
    }
  }
  flush();
  return rows;
}

/** A field's value in the diff table: JSON, `—` when the version does not have the field. */
export function valueText(value: unknown, present: boolean): string {
  if (!present) return '—';
  return JSON.stringify(value) ?? String(value);
}

/** What a version did, as the history lists it: `rollback to version 1` for a rollback, else its action. */
export function actionText(v: Pick<VersionSummary, 'action' | 'rollbackOf'>): string {
  return v.rollbackOf === undefined ? v.action : `rollback to version ${v.rollbackOf}`;
}

/**
 * The two versions to compare after a click on `version`'s checkbox: a picked one is dropped; a new one is
 * added, the older of two picks making way when a third is chosen. Kept in order, oldest first.
 */
export function togglePick(picked: readonly number[], version: number): number[] {
  if (picked.includes(version)) return picked.filter((v) => v !== version);
  const next = [...picked, version];
  return (next.length > 2 ? next.slice(1) : next).sort((a, b) => a - b);
}
