import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AlertMetadata } from '@weir/contract';
import { isolatedEngine, post, waitFor, waitForRunning } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';
import { suppressionId } from '../../src/rules/rule-suppression.ts';
import { kcatLines, kcatProduce } from '@weir/test-helpers/kcat';

type Alert = { n: number; user?: string; _time: number; _rule: { id: string }; _alert: AlertMetadata };
type Source = { topic: string; partition: number; offset: number };

/**
 * Suppression (docs/alerts.md, "Suppression") through the real engine, read with kcat: a burst of
 * 200 unkeyed events on 4 partitions, event times in 2019, six values of `user` (one of them missing:
 * null) over two 5-second windows each. Live on 1 stream thread (node A), live on 2 (node B, the same
 * input from the start), and replayed on node B after an offset reset: each time, one record per
 * window written at once with the window's id, and one update record per window that suppressed any,
 * with the same id, count, first and last seen and earliest alert. The idle close (3 s) closes the
 * windows after the burst.
 */
const input = uniqueTopic('suppress-in');
const output = uniqueTopic('suppress-out');
const T0 = Date.UTC(2019, 2, 1, 10, 0, 0); // a whole number of 5-second windows
const window = 5_000;
const users = ['ann', 'bob', 'cid', 'dan', 'eve'];
const events = Array.from({ length: 200 }, (_, i) => {
  const event: Record<string, unknown> = { n: i, action: 'login', _time: T0 + 2_500 + i * 25 };
  if (i % 10 !== 9) event['user'] = users[i % 5];
  return JSON.stringify(event);
});

let where: Map<number, Source>;

/** What the semantics say the alerts topic gets: per window, the record written at once, and its update when it suppressed any. */
function expected() {
  const windows = new Map<string, { user: string | null; start: number; ns: number[] }>();
  for (const line of events) {
    const e = JSON.parse(line) as { n: number; user?: string; _time: number };
    const user = e.user ?? null;
    const start = e._time - (e._time % window);
    const key = `${JSON.stringify([user])}@${start}`;
    const w = windows.get(key) ?? { user, start, ns: [] };
    w.ns.push(e.n);
    windows.set(key, w);
  }
  const ids = [...windows.values()].map((w) => suppressionId('login', JSON.stringify([w.user]), w.start)).sort();
  const updates = [...windows.values()]
    .filter((w) => w.ns.length > 1)
    .map((w) => {
      const first = Math.min(...w.ns); // times grow with n: the earliest alert is the lowest n
      const last = Math.max(...w.ns);
      return {
        n: first,
        id: suppressionId('login', JSON.stringify([w.user]), w.start),
        source: where.get(first),
        suppression: {
          count: w.ns.length - 1,
          firstSeen: T0 + 2_500 + first * 25,
          lastSeen: T0 + 2_500 + last * 25,
          fields: { user: w.user },
          window: { start: w.start, end: w.start + window },
        },
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  return { ids, updates };
}

/** The alerts of one run, checked against the semantics: the same result whatever run it is. */
function checkRun(lines: readonly string[], label: string): void {
  const want = expected();
  const alerts = lines.map((l) => JSON.parse(l) as Alert);
  const atOnce = alerts.filter((a) => a._alert.suppression?.count === 0);
  const updates = alerts.filter((a) => (a._alert.suppression?.count ?? 0) > 0);
  assert.equal(atOnce.length + updates.length, alerts.length, `${label}: every alert has _alert.suppression`);
  assert.deepEqual(atOnce.map((a) => a._alert.id).sort(), want.ids, `${label}: one record at once per window`);
  for (const a of atOnce) {
    const s = a._alert.suppression!;
    assert.deepEqual(
      [s.firstSeen, s.lastSeen, s.fields, a._alert.source],
      [a._time, a._time, { user: a.user ?? null }, where.get(a.n)],
      label,
    );
    assert.ok(a._time >= s.window.start && a._time < s.window.end, label);
  }
  assert.deepEqual(
    updates
      .map((a) => ({ n: a.n, id: a._alert.id, source: a._alert.source, suppression: a._alert.suppression }))
      .sort((a, b) => (a.id < b.id ? -1 : 1)),
    want.updates,
    `${label}: the update records`,
  );
}

/** The records of a run: once `count` are there, and still `count` two idle closes later. */
async function settled(topic: string, count: number, label: string): Promise<string[]> {
  await waitFor(
    `${count} records on ${topic} (${label})`,
    async () => (await kcatLines(topic, '%s\n')).length >= count,
    90_000,
  );
  await new Promise((r) => setTimeout(r, 7_000));
  const lines = await kcatLines(topic, '%s\n');
  assert.equal(lines.length, count, `${label}: nothing more is written`);
  return lines;
}

async function setUp(t: TestNode, token: string): Promise<void> {
  await post(t, token, '/api/rules', {
    id: 'login',
    name: 'Login',
    pdl: 'action="login"',
    enabled: true,
    suppression: { fields: ['user'], window: '5s' },
  });
  await post(t, token, '/api/tasks', {
    id: 1,
    name: 'rules',
    function: 'APPLY_RULES',
    definition: { rules: ['login'] },
  });
  await post(t, token, '/api/pipelines', { id: 1, name: 'detect', tasks: [1] });
  await post(t, token, '/api/topologies', {
    id: 1,
    name: 'suppress',
    pipelines: [1],
    enabled: true,
    group: 'default',
    input: { name: input },
    output: [{ name: output }],
  });
  await waitForRunning(t, token);
}

const nodes: TestNode[] = [];
before(async () => {
  await createTopics([input], 4);
  await createTopics([output]);
});
after(async () => {
  for (const n of nodes) await n.stop();
});

const total = () => expected().ids.length + expected().updates.length;

test('live on one stream thread: one record per window at once, one update with the count per window that suppressed any', async () => {
  const settings = {
    ...isolatedEngine('suppress-a'),
    'num.stream.threads': '1',
    'weir.stream.idle-close-seconds': '3',
  };
  const a = await startTestNode(settings);
  nodes.push(a);
  const token = await a.initAdmin();
  await setUp(a, token);
  await kcatProduce(input, events);
  where = new Map(
    (await kcatLines(input, '%p %o %s\n')).map((line) => {
      const [p, o] = line.split(' ', 2) as [string, string];
      const n = (JSON.parse(line.slice(p.length + o.length + 2)) as { n: number }).n;
      return [n, { topic: input, partition: Number(p), offset: Number(o) }];
    }),
  );
  assert.equal(where.size, 200);
  assert.equal(new Set([...where.values()].map((w) => w.partition)).size, 4, 'the burst spreads over 4 partitions');
  // 6 values (one null) in 2 windows each; every window suppressed some
  assert.deepEqual([expected().ids.length, expected().updates.length], [12, 12]);
  const lines = await settled(`${settings['weir.topic.prefix']}_alerts`, total(), '1 thread');
  checkRun(lines, '1 thread');
  // the topology's output gets the alerts written at once, not the updates
  assert.equal((await kcatLines(output, '%s\n')).length, 12);
  await a.stop();
  nodes.pop();
});

test('live on two stream threads, then replayed after an offset reset: the same windows, ids, counts and updates', async () => {
  const settings = {
    ...isolatedEngine('suppress-b'),
    'num.stream.threads': '2',
    'weir.stream.idle-close-seconds': '3',
  };
  const alertsTopic = `${settings['weir.topic.prefix']}_alerts`;
  const b = await startTestNode(settings);
  nodes.push(b);
  const token = await b.initAdmin();
  await setUp(b, token);
  const first = await settled(alertsTopic, total(), '2 threads');
  checkRun(first, '2 threads');

  assert.equal((await b.call('POST', '/api/engine/stop', { token })).status, 200);
  const group = settings['weir.application.id'];
  await waitFor('the group to have no members and reset', async () => {
    const res = await b.call('POST', `/api/consumer-groups/${group}/reset-offsets`, {
      token,
      body: { to: 'earliest', topics: [input] },
    });
    return res.status === 200;
  });
  assert.equal((await b.call('POST', '/api/engine/start', { token })).status, 200);
  const all = await settled(alertsTopic, 2 * total(), 'replay');
  const replayed = [...all];
  for (const line of first) replayed.splice(replayed.indexOf(line), 1);
  checkRun(replayed, 'replay');
  // the updates of the replay are those of the live run, byte for byte
  const updatesOf = (ls: readonly string[]) => ls.filter((l) => !l.includes('"count":0,')).sort();
  assert.deepEqual(updatesOf(replayed), updatesOf(first));
});
