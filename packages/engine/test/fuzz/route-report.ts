/** Counts of one route's fuzz run, and the table the suite prints. */
export interface RouteStats {
  readonly route: string;
  inputs: number;
  s2xx: number;
  s4xx: number;
  s5xx: number;
  other: number;
  hangs: number;
  /** Rejected requests covered by a before/after comparison of the stored state. */
  stateChecked: number;
  /** Slowest answer, in ms (shown, not asserted). */
  slowestMs: number;
}

export function newStats(route: string): RouteStats {
  return { route, inputs: 0, s2xx: 0, s4xx: 0, s5xx: 0, other: 0, hangs: 0, stateChecked: 0, slowestMs: 0 };
}

/** A fixed-width table, one line per route and a total. */
export function statsTable(stats: readonly RouteStats[]): string {
  const head = ['route', 'inputs', '2xx', '4xx', '5xx', 'other', 'hangs', 'rejected+state checked', 'slowest ms'];
  const total = stats.reduce(
    (t, s) => ({
      ...t,
      inputs: t.inputs + s.inputs,
      s2xx: t.s2xx + s.s2xx,
      s4xx: t.s4xx + s.s4xx,
      s5xx: t.s5xx + s.s5xx,
      other: t.other + s.other,
      hangs: t.hangs + s.hangs,
      stateChecked: t.stateChecked + s.stateChecked,
      slowestMs: Math.max(t.slowestMs, s.slowestMs),
    }),
    newStats(`total (${stats.length} routes)`),
  );
  const rows = [...stats, total].map((s) =>
    [s.route, s.inputs, s.s2xx, s.s4xx, s.s5xx, s.other, s.hangs, s.stateChecked, Math.round(s.slowestMs)].map(String),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [
    line(head),
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}
