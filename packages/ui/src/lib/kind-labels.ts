import type { KindInfo } from '@weir/contract';

/**
 * `n` and the word for it, singular for exactly one: `1 lookup`, `2 lookups`, `0 lookups` (`many`
 * defaults to `one` + s; `shown` writes `n` another way, such as `1,200`).
 */
export function countOf(n: number, one: string, many = `${one}s`, shown: string = String(n)): string {
  return `${shown} ${n === 1 ? one : many}`;
}

/** `topology` → `Topology`. */
export const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The words and paths a resource page shows for one kind of the registry (`configKinds.tasks` → "Tasks", "New task"…). */
export interface KindLabels {
  /** The page's heading: `Tasks`. */
  readonly title: string;
  /** The list's path, which `/{path}/{id}` extends: `/tasks`. */
  readonly listPath: string;
  /** The new-record button and drawer title: `New task`. */
  readonly newRecord: string;
  /** The drawer's title for a stored record: `Task 3`. */
  record(id: string | number): string;
  /** What a row's buttons act on (`Edit task 3`): `task 3`. */
  row(id: string | number): string;
  /** What the delete dialog names: `task 3 (parse)`, or `lookup users` for a record without a name. */
  deleting(record: { readonly id: string | number; readonly name?: string }): string;
  /** The line under the table: `2 tasks`, `1 task`. */
  count(n: number): string;
  /** The test id of the table's rows: `task-row`. */
  readonly rowTestId: string;
}

export function kindLabels(kind: Pick<KindInfo, 'path' | 'names'>): KindLabels {
  const { one, many } = kind.names;
  return {
    title: capitalised(many),
    listPath: `/${kind.path}`,
    newRecord: `New ${one}`,
    record: (id) => `${capitalised(one)} ${id}`,
    row: (id) => `${one} ${id}`,
    deleting: (r) => (r.name === undefined ? `${one} ${r.id}` : `${one} ${r.id} (${r.name})`),
    count: (n) => countOf(n, one, many),
    rowTestId: `${one}-row`,
  };
}
