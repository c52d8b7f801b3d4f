import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { AlertIndex } from '../../src/alerts/alert-index.ts';
import type { GroupBy } from '../../src/alerts/alert-query.ts';
import { alertRecords } from './alert-fixtures.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-alert-groups-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const hour = 3_600_000;

test('groups from the hourly counts equal the scan: any range, rule or field, absent fields, replaced and pruned alerts', () => {
  const index = new AlertIndex(dir, { days: 0, maxCount: 150 });
  const t0 = 1_700_000_000_000 - (1_700_000_000_000 % hour);
  const specs = Array.from({ length: 200 }, (_, n) => ({
    n,
    time: t0 + ((n * 7919) % (30 * hour)),
    ...(n % 9 === 0 ? {} : { rule: `r${n % 4}` }),
    user: `u${n % 6}`,
    extra:
      n % 5 === 0 ? { host: `h${n % 3}` } : { flag: n % 2 === 0, ...(n % 3 === 0 ? { port: n % 2 ? 22 : 1.5 } : {}) },
  }));
  index.ingest('a', alertRecords(specs), new Map([[0, 200]]));
  // a replaced alert moves to another hour and rule, twice in one batch; retention removes the oldest 50
  index.ingest(
    'a',
    alertRecords(
      [
        { n: 3, time: t0 + 28 * hour + 5, rule: 'moved', extra: { port: 8080 } },
        { n: 200, time: t0 + 28 * hour + 6, extra: { port: 22 } },
        { n: 3, time: t0 + 29 * hour + 5, rule: 'moved', extra: { port: 443, host: 'h1' } },
      ],
      200,
    ),
    new Map([[0, 203]]),
  );
  index.prune();
  const every = { severities: [0, 1, 2, 3, 4] }; // the same alerts, answered by a scan
  const bys: GroupBy[] = [
    { kind: 'rule' },
    { kind: 'field', path: 'user' },
    { kind: 'field', path: 'host' },
    { kind: 'field', path: 'flag' },
    { kind: 'field', path: 'port' },
  ];
  const ranges = [
    {},
    { from: t0 + 1234 },
    { to: t0 + 20 * hour - 1 },
    { from: t0 + 2 * hour, to: t0 + 7 * hour - 1 },
    { from: t0 + 2 * hour + 17, to: t0 + 9 * hour + 5 },
    { from: t0 + 3 * hour + 1, to: t0 + 3 * hour + 99 },
  ];
  for (const by of bys)
    for (const range of ranges)
      assert.deepEqual(
        index.groups(by, range).map((g) => ({ ...g })),
        index.groups(by, { ...range, ...every }).map((g) => ({ ...g })),
        JSON.stringify({ by, range }),
      );
  assert.ok(index.groups({ kind: 'field', path: 'host' }, {}).some((g) => g.key === null));
  index.close();
});
