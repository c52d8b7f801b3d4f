import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import { AlertIndex } from '../../src/alerts/alert-index.ts';
import { alertFilter } from '../../src/alerts/alert-query.ts';
import { untriaged } from '../../src/alerts/triage.ts';
import { alertId, alertRecord, alertRecords } from './alert-fixtures.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function open(retention = { days: 0, maxCount: 0 }, dir = mkdtempSync(path.join(os.tmpdir(), 'weir-alert-index-'))) {
  dirs.push(dir);
  return { index: new AlertIndex(dir, retention), dir };
}
const ids = (page: { alerts: { id: string }[] }) => page.alerts.map((a) => a.id);
const triage = (status: 'new' | 'acknowledged' | 'closed', assignee: string | null = null) => ({
  ...untriaged,
  status,
  resolution: status === 'closed' ? ('benign' as const) : null,
  assignee,
  updatedBy: 'u',
  updatedAt: 1,
});

test('ingest: upsert by _alert.id (a later record of the same alert wins), skipped records counted, positions stored', () => {
  const { index, dir } = open();
  const first = index.ingest('a', alertRecords([{ n: 1 }, { n: 2 }]), new Map([[0, 2]]));
  assert.deepEqual(first, { stored: 2, skipped: 0 });
  const update = {
    partition: 1,
    offset: 0,
    value: Buffer.from(JSON.stringify(alertRecord({ n: 1, extra: { count: 7 } }))),
  };
  const junk = [
    { partition: 1, offset: 1, value: Buffer.from('not json') },
    { partition: 1, offset: 2, value: Buffer.from('{"padasRule":{"id":"x"}}') },
    { partition: 1, offset: 3, value: Buffer.from('{"_alert":{"id":"short","severity":"high","time":1}}') },
    { partition: 1, offset: 4, value: null },
  ];
  assert.deepEqual(index.ingest('a', [update, ...junk], new Map([[1, 5]])), { stored: 1, skipped: 4 });
  assert.equal(index.count(), 2);
  assert.equal(index.get(alertId(1))!.record.count, 7);
  assert.deepEqual(
    [...index.positions('a')],
    [
      [0, 2],
      [1, 5],
    ],
  );
  assert.deepEqual([...index.positions('b')], []);
  index.close();
  // reopened: the same rows and positions
  const again = open(undefined, dir).index;
  assert.equal(again.count(), 2);
  assert.deepEqual(
    [...again.positions('a')],
    [
      [0, 2],
      [1, 5],
    ],
  );
  again.close();
});

test('triage: applied before the alert arrives and after; an older offset does not replace a newer one', () => {
  const { index } = open();
  index.applyTriage([{ id: alertId(1), triage: triage('closed', 'bo'), offset: 5 }], 't', new Map([[0, 6]]));
  index.ingest('a', alertRecords([{ n: 1 }, { n: 2 }]), new Map([[0, 2]]));
  assert.deepEqual(
    [index.get(alertId(1))!.status, index.get(alertId(1))!.assignee, index.get(alertId(2))!.status],
    ['closed', 'bo', 'new'],
  );
  index.applyTriage([{ id: alertId(2), triage: triage('acknowledged'), offset: 7 }]);
  index.applyTriage([{ id: alertId(1), triage: triage('acknowledged'), offset: 3 }]);
  assert.equal(index.get(alertId(1))!.status, 'closed');
  assert.deepEqual(ids(index.list(alertFilter({ status: 'acknowledged' }))), [alertId(2)]);
  assert.deepEqual(ids(index.list(alertFilter({ assignee: 'bo' }))), [alertId(1)]);
  // a re-delivered alert keeps its triage
  index.ingest('a', alertRecords([{ n: 1 }]), new Map([[0, 3]]));
  assert.equal(index.get(alertId(1))!.status, 'closed');
  assert.deepEqual([...index.positions('t')], [[0, 6]]);
  index.close();
});

test('list: the cursor pages through equal times by id, newest first, every alert once', () => {
  const { index } = open();
  const specs = Array.from({ length: 25 }, (_, n) => ({ n, time: 1000 + Math.floor(n / 4) }));
  index.ingest('a', alertRecords(specs), new Map([[0, 25]]));
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = index.list(alertFilter({ limit: 4, ...(cursor ? { cursor } : {}) }));
    seen.push(...ids(page));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const expected = specs
    .map((s) => ({ id: alertId(s.n), time: s.time }))
    .sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : -1))
    .map((a) => a.id);
  assert.deepEqual(seen, expected);
  index.close();
});

test('retention: by age of the event time and by count, oldest first', () => {
  const now = 100 * 24 * 3600 * 1000;
  const day = 24 * 3600 * 1000;
  const { index } = open({ days: 10, maxCount: 2 });
  index.ingest(
    'a',
    alertRecords([
      { n: 1, time: now - 11 * day },
      { n: 2, time: now - 3 * day },
      { n: 3, time: now - 2 * day },
      { n: 4, time: now - 1 * day },
    ]),
    new Map([[0, 4]]),
  );
  assert.equal(index.prune(now), 2);
  assert.deepEqual(ids(index.list(alertFilter({}))), [alertId(4), alertId(3)]);
  index.close();
});

test('list and groups: entity fields, text and silenced as a scan answers them', () => {
  const { index } = open();
  const specs = Array.from({ length: 40 }, (_, n) => ({
    n,
    user: `u${n % 4}`,
    extra: { port: n % 3, src: { ip: `10.0.0.${n % 5}` }, note: n % 7 === 0 ? 'Disk FULL on /var' : 'ok' },
  }));
  index.ingest('a', alertRecords(specs), new Map([[0, 40]]));
  const expect = (pred: (s: (typeof specs)[number]) => boolean) =>
    specs
      .filter(pred)
      .map((s) => alertId(s.n))
      .reverse();
  const all = { limit: 1000 };
  assert.deepEqual(
    ids(index.list({ ...all, fields: [['user', 'u1']] })),
    expect((s) => s.user === 'u1'),
  );
  assert.deepEqual(
    ids(index.list({ ...all, fields: [['port', '2']] })),
    expect((s) => s.extra.port === 2),
  );
  assert.deepEqual(
    ids(
      index.list({
        ...all,
        fields: [
          ['src.ip', '10.0.0.3'],
          ['user', 'u3'],
        ],
      }),
    ),
    expect((s) => s.extra.src.ip === '10.0.0.3' && s.user === 'u3'),
  );
  assert.deepEqual(
    ids(index.list({ ...all, text: 'full on /' })),
    expect((s) => s.extra.note !== 'ok'),
  );
  assert.deepEqual(
    ids(index.list({ ...all, text: 'sk full' })),
    expect((s) => s.extra.note !== 'ok'),
  );
  const silenced = { any: true, test: (r: Record<string, unknown>) => r.user === 'u2' };
  assert.deepEqual(
    ids(index.list({ ...all, silenced: true }, silenced)),
    expect((s) => s.user === 'u2'),
  );
  assert.deepEqual(
    ids(index.list({ ...all, silenced: false }, silenced)),
    expect((s) => s.user !== 'u2'),
  );
  assert.deepEqual(ids(index.list({ ...all, silenced: true }, { any: false, test: () => true })), []);
  assert.deepEqual(
    index
      .groups({ kind: 'field', path: 'user' }, { silenced: false, fields: [['port', '0']] }, silenced)
      .map((g) => [g.key, g.count]),
    [
      ['u0', 4],
      ['u3', 4],
      ['u1', 3],
    ],
  );
  index.close();
});

test('text: rare, common and dense words (each way the list finds them) give what a scan gives, newest first, page by page', () => {
  const { index } = open();
  // 60,000 alerts: `rare` in 1,000 of them, `common` in 6,000, `dense note` in all (`Dense NOTE` in every tenth)
  const specs = Array.from({ length: 60_000 }, (_, n) => ({
    n,
    extra: {
      note: `${n % 60 === 0 ? 'rare ' : ''}${n % 10 === 3 ? 'common ' : ''}${n % 10 === 7 ? 'Dense NOTE' : 'dense note'}`,
    },
  }));
  for (let i = 0; i < specs.length; i += 10_000)
    index.ingest('a', alertRecords(specs.slice(i, i + 10_000), i), new Map([[0, i + 10_000]]));
  const newest = (pred: (note: string) => boolean, limit: number) =>
    specs
      .filter((s) => pred(s.extra.note.toLowerCase()))
      .map((s) => alertId(s.n))
      .reverse()
      .slice(0, limit);
  // the words the text index looks up: `rare` (1,000 alerts), `common` (6,000), `note` (all), none
  for (const text of [':"rare dense', ':"Common dense', 'dense note"', 'xyz-none']) {
    const wanted = newest((note) => `"note":"${note}"`.includes(text.toLowerCase()), 250);
    const first = index.list({ limit: 100, text });
    assert.deepEqual(ids(first), wanted.slice(0, 100), text);
    if (first.nextCursor !== null) {
      const after = alertFilter({ limit: 150, q: text, cursor: first.nextCursor });
      assert.deepEqual(ids(index.list(after)), wanted.slice(100, 250), `${text}, second page`);
    }
  }
  index.close();
});

test('an index file of version 2 is upgraded in place: its alerts stay, new ones are counted once, deletes remove their rows', () => {
  const { index, dir } = open({ days: 0, maxCount: 3 });
  index.ingest('a', alertRecords([1, 2].map((n) => ({ n, user: 'amy' }))), new Map([[0, 2]]));
  index.close();
  // what version 2 had beside version 3's tables: a trigger counting each new alert, an index of
  // entity rows by rowid, indexes on severity and status
  const db = new DatabaseSync(path.join(dir, 'alerts.db'));
  db.exec(`CREATE TRIGGER alerts_added AFTER INSERT ON alerts BEGIN
      UPDATE rule_counts SET n = n + 1 WHERE rule = ifnull('=' || new.rule, '');
    END;
    CREATE INDEX entities_rid ON entities (rid);
    CREATE INDEX alerts_severity ON alerts (severity, time);
    CREATE INDEX alerts_status ON alerts (status, time);
    PRAGMA user_version = 2;`);
  db.close();
  const again = open({ days: 0, maxCount: 3 }, dir).index;
  again.ingest(
    'a',
    alertRecords(
      [3, 4].map((n) => ({ n, user: 'amy' })),
      2,
    ),
    new Map([[0, 4]]),
  );
  assert.equal(again.prune(), 1);
  const by = { kind: 'field', path: 'user' } as const;
  const counted = again.groups(by, {}).map((g) => ({ ...g }));
  assert.deepEqual(
    counted,
    again.groups(by, { severities: [0, 1, 2, 3, 4] }).map((g) => ({ ...g })),
  );
  assert.deepEqual(counted, [{ key: 'amy', count: 3, firstSeen: 1_700_000_002_000, lastSeen: 1_700_000_004_000 }]);
  assert.deepEqual(
    again.groups({ kind: 'rule' }, {}).map((g) => [g.key, g.count]),
    [['failed-login', 3]],
  );
  again.close();
  const check = new DatabaseSync(path.join(dir, 'alerts.db'));
  assert.deepEqual(
    check
      .prepare(
        "SELECT name FROM sqlite_schema WHERE name IN ('alerts_added', 'entities_rid', 'alerts_severity', 'alerts_status')",
      )
      .all(),
    [],
  );
  // user and action of each of the 3 alerts left
  assert.equal((check.prepare('SELECT COUNT(*) AS n FROM entities').get() as { n: number }).n, 6);
  check.close();
});

test('an index file of version 3 is upgraded in place: the assignee index keeps assigned alerts only, and the assignee filter still uses it', () => {
  const { index, dir } = open();
  index.ingest('a', alertRecords([1, 2, 3].map((n) => ({ n }))), new Map([[0, 3]]));
  index.applyTriage([{ id: alertId(2), triage: triage('acknowledged', 'amy'), offset: 1 }]);
  index.close();
  // version 3's assignee index: every alert in it, assigned or not
  const db = new DatabaseSync(path.join(dir, 'alerts.db'));
  db.exec(`DROP INDEX alerts_assignee; CREATE INDEX alerts_assignee ON alerts (assignee, time);
    PRAGMA user_version = 3;`);
  db.close();
  const again = open({ days: 0, maxCount: 0 }, dir).index;
  again.ingest('a', alertRecords([{ n: 4 }], 3), new Map([[0, 4]]));
  again.applyTriage([{ id: alertId(4), triage: triage('new', 'amy'), offset: 2 }]);
  again.applyTriage([{ id: alertId(2), triage: triage('closed', 'bo'), offset: 3 }]);
  assert.deepEqual(ids(again.list(alertFilter({ assignee: 'amy' }))), [alertId(4)]);
  assert.deepEqual(ids(again.list(alertFilter({ assignee: 'bo' }))), [alertId(2)]);
  assert.deepEqual(ids(again.list(alertFilter({ assignee: 'cy' }))), []);
  again.close();
  const check = new DatabaseSync(path.join(dir, 'alerts.db'));
  assert.equal((check.prepare('PRAGMA user_version').get() as { user_version: number }).user_version, 4);
  assert.match(
    (check.prepare("SELECT sql FROM sqlite_schema WHERE name = 'alerts_assignee'").get() as { sql: string }).sql,
    /WHERE assignee IS NOT NULL$/,
  );
  // the list's query by assignee (alert-index.ts) is answered by the partial index
  const plan = check
    .prepare(
      `EXPLAIN QUERY PLAN SELECT a.*, t.value AS triage FROM alerts a LEFT JOIN triage t ON t.id = a.id
       WHERE a.assignee = ? ORDER BY a.time DESC, a.id DESC LIMIT ?`,
    )
    .all('amy', 101) as { detail: string }[];
  assert.ok(
    plan.some((p) => p.detail.includes('USING INDEX alerts_assignee (assignee=?)')),
    JSON.stringify(plan),
  );
  check.close();
});
