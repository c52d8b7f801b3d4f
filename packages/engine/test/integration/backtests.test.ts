import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { ProduceAcks, Producer } from '@platformatic/kafka';
import type { BacktestStatus } from '@weir/contract';
import { isolatedEngine, post, waitFor, waitForRunning } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { kcatEndOffsets, kcatLines } from '@weir/test-helpers/kcat';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { testBootstrap, useTestNode } from '@weir/test-helpers/test-node';

const run = promisify(execFile);
type Alert = { user: string; _rule: { id: string }; _alert: { id: string; source: { topic: string } | null } };

const FAIL = 'action="fail"';
const BURST = 'action="fail" | event_count timespan=10m group_by user reset=false where _aggregation.value >= 3';
/** The staged topology: its first stage lets each user's third failure on through, its second counts them. */
const THIRD = 'action="fail" | event_count timespan=10m group_by user reset=false where _aggregation.value >= 3';
const STREAK =
  '_aggregation.value >= 3 | event_count timespan=10m group_by user reset=false where _aggregation.value >= 1';
const t0 = Date.UTC(2019, 2, 14, 9, 0, 0);
const users = ['u0', 'u1', 'u2', 'u3'];

/**
 * Events of March 2019, unkeyed, written round-robin to 3 partitions with their event time as the
 * record timestamp. `wave` 0: each user's first two failures (a count of 1 and 2: no burst alert in
 * any order); wave 1: 40 more events, 3/4 failures, every one of which brings a count ≥ 3.
 */
function wave(n: 0 | 1): { value: string; time: number }[] {
  if (n === 0)
    return [0, 1].flatMap((k) =>
      users.map((user, u) => {
        const time = t0 + (k * users.length + u) * 1000;
        return { value: JSON.stringify({ action: 'fail', user, _time: time }), time };
      }),
    );
  return Array.from({ length: 40 }, (_, i) => {
    const time = t0 + 60_000 + i * 5000;
    const event = { action: i % 4 === 3 ? 'ok' : 'fail', user: users[i % users.length], _time: time };
    return { value: JSON.stringify(event), time };
  });
}

async function produceAt(topic: string, records: { value: string; time: number }[], first: number): Promise<void> {
  const producer = new Producer({
    clientId: 'weir-test-backtest',
    bootstrapBrokers: [testBootstrap()],
    idempotent: true,
  });
  try {
    await producer.send({
      messages: records.map((r, i) => ({
        topic,
        partition: (first + i) % 3,
        value: Buffer.from(r.value),
        timestamp: BigInt(r.time),
      })),
      acks: ProduceAcks.ALL,
    });
  } finally {
    await producer.close();
  }
}

/**
 * The broker's topics this node could make (its prefix; a topic named after the input, as a
 * repartition or changelog topic would be): the other test files share the broker and create theirs
 * meanwhile.
 */
async function topicNames(prefix: string, input: string): Promise<string[]> {
  const { stdout } = await run('kcat', ['-b', testBootstrap(), '-L', '-J'], { timeout: 30_000 });
  return (JSON.parse(stdout) as { topics: { topic: string }[] }).topics
    .map((x) => x.topic)
    .filter((name) => name.startsWith(prefix) || name.includes(input))
    .sort();
}

for (const threads of [1, 2]) {
  describe(`backtests over Kafka: the live engine's alerts, exactly (${threads} stream thread${threads > 1 ? 's' : ''})`, () => {
    let token: string;
    const settings = { ...isolatedEngine(`backtest${threads}`), 'num.stream.threads': String(threads) };
    const input = uniqueTopic('backtest-in');
    const output = uniqueTopic('backtest-out');
    // a second topology, of two correlation stages: a PDL_EXPRESSION's, then an APPLY_RULES task's
    const staged = uniqueTopic('backtest-staged');
    const alertsTopic = `${settings['weir.topic.prefix']}_alerts`;
    const tn = useTestNode(settings, async () => {
      token = await tn.initAdmin();
      await createTopics([input, staged], 3);
      await createTopics([output]);
      const rule = (id: string, pdl: string) => ({
        id,
        name: id,
        description: '',
        pdl,
        annotations: [],
        enabled: true,
      });
      await post(tn, token, '/api/rules', rule('fail', FAIL));
      await post(tn, token, '/api/rules', rule('burst', BURST));
      await post(tn, token, '/api/tasks', {
        id: 1,
        name: 'rules',
        description: '',
        function: 'APPLY_RULES',
        definition: { rules: ['fail', 'burst'], matchAll: true },
      });
      // a pipeline of two tasks: a filter that keeps every event of the test, then the rules
      await post(tn, token, '/api/tasks', {
        id: 2,
        name: 'known actions',
        description: '',
        function: 'FILTER',
        definition: { type: 'pdl', value: 'action="fail" OR action="ok"', action: 'keep' },
      });
      await post(tn, token, '/api/pipelines', { id: 1, name: 'detect', description: '', tasks: [2, 1] });
      await post(tn, token, '/api/topologies', {
        id: 1,
        name: 'logins',
        description: '',
        pipelines: [1],
        enabled: true,
        group: 'default',
        input: { name: input },
        output: [{ name: output }],
      });
      await post(tn, token, '/api/rules', rule('streak', STREAK));
      await post(tn, token, '/api/tasks', {
        id: 3,
        name: 'third failure',
        description: '',
        function: 'PDL_EXPRESSION',
        definition: { pdl: THIRD },
      });
      await post(tn, token, '/api/tasks', {
        id: 4,
        name: 'streaks',
        description: '',
        function: 'APPLY_RULES',
        definition: { rules: ['streak'], matchAll: true },
      });
      await post(tn, token, '/api/pipelines', { id: 2, name: 'staged', description: '', tasks: [3, 4] });
      await post(tn, token, '/api/topologies', {
        id: 2,
        name: 'staged',
        description: '',
        pipelines: [2],
        enabled: true,
        group: 'default',
        input: { name: staged },
        output: [{ name: output }],
      });
      await waitForRunning(tn, token);
    });

    /** The alerts the engine wrote for the records of `topic`. */
    const liveAlerts = async (topic = input): Promise<Alert[]> =>
      (await kcatLines(alertsTopic, '%s\n').catch(() => []))
        .map((l) => JSON.parse(l) as Alert)
        .filter((a) => a._alert.source?.topic === topic);

    async function backtest(body: unknown): Promise<BacktestStatus> {
      const res = await tn.call('POST', '/api/backtests', { token, body });
      assert.equal(res.status, 202, res.text);
      const id = (res.body as BacktestStatus).id;
      return waitFor(
        `backtest ${id}`,
        async () => {
          const s = (await tn.call('GET', `/api/backtests/${id}`, { token })).body as BacktestStatus;
          return s.state === 'queued' || s.state === 'running' ? undefined : s;
        },
        60_000,
      );
    }

    test('a backtest over the range the engine processed gives its alert ids (correlations included); nothing is written; a changed rule shows new and lost alerts', async () => {
      const first = wave(0);
      const second = wave(1);
      await produceAt(input, first, 0);
      // wave 0 gives 8 `fail` alerts; its burst counts reach 2 per user before wave 1 arrives
      await waitFor('wave 0 alerts', async () => ((await liveAlerts()).length >= 8 ? true : undefined), 60_000);
      await produceAt(input, second, first.length);
      const failures = second.filter((r) => r.value.includes('"fail"')).length;
      const expected = 8 + failures * 2; // each wave-1 failure: a fail alert and a burst alert (count ≥ 3)
      await waitFor('every alert', async () => ((await liveAlerts()).length >= expected ? true : undefined), 90_000);
      await new Promise((r) => setTimeout(r, 1500));
      const live = await liveAlerts();
      assert.equal(live.length, expected, 'no more alerts than expected');
      assert.equal(live.filter((a) => a._rule.id === 'burst').length, failures);

      const topicsBefore = await topicNames(settings['weir.topic.prefix']!, input);
      const offsetsBefore = [await kcatEndOffsets(input, 3), (await liveAlerts()).length];
      const same = await backtest({
        candidate: {
          rules: [
            { id: 'fail', version: 1 },
            { id: 'burst', version: 1 },
          ],
        },
        source: { topic: input, from: new Date(t0).toISOString(), to: t0 + 3600_000 },
        first: 100,
      });
      assert.equal(same.state, 'done', same.error);
      assert.equal(same.progress.eventsRead, first.length + second.length);
      assert.equal(same.progress.share, 1);
      const result = same.result!;
      const ids = (r: string) =>
        live
          .filter((a) => a._rule.id === r)
          .map((a) => a._alert.id)
          .sort();
      const backtestIds = (r: string) =>
        (result.rules.find((x) => x.id === r)!.first as unknown as Alert[]).map((a) => a._alert.id).sort();
      assert.deepEqual(
        result.rules.map((r) => [r.id, r.alerts]),
        [
          ['fail', 8 + failures],
          ['burst', failures],
        ],
      );
      assert.deepEqual(backtestIds('fail'), ids('fail'));
      assert.deepEqual(backtestIds('burst'), ids('burst'));
      assert.deepEqual(result.diff.onlyCandidate, { count: 0, first: [], alerts: [] });
      assert.deepEqual(result.diff.onlyCurrent, { count: 0, first: [], alerts: [] });
      assert.equal(result.diff.both.count, expected);
      assert.deepEqual([...result.diff.both.first].sort(), live.map((a) => a._alert.id).sort());

      // the pipeline in force, and the topology, as candidates: the live alerts, exactly; the same as in force
      for (const candidate of [{ pipeline: 1 }, { topology: 1 }]) {
        const flow = await backtest({
          candidate,
          source: { topic: input, from: t0, to: t0 + 3600_000 },
          first: 100,
        });
        const what = JSON.stringify(candidate);
        assert.equal(flow.state, 'done', `${what}: ${flow.error}`);
        assert.equal(flow.result!.events, first.length + second.length, what);
        assert.deepEqual(
          flow.result!.rules.map((r) => [
            r.id,
            r.alerts,
            (r.first as unknown as Alert[]).map((a) => a._alert.id).sort(),
          ]),
          [
            ['fail', 8 + failures, ids('fail')],
            ['burst', failures, ids('burst')],
          ],
          what,
        );
        assert.deepEqual(flow.result!.diff.onlyCandidate, { count: 0, first: [], alerts: [] }, what);
        assert.deepEqual(flow.result!.diff.onlyCurrent, { count: 0, first: [], alerts: [] }, what);
        assert.deepEqual(
          [flow.result!.diff.both.count, [...flow.result!.diff.both.first].sort()],
          [expected, live.map((a) => a._alert.id).sort()],
          what,
        );
      }

      // offsets past a partition's end are refused, naming the partition and what it holds
      const past = await tn.call('POST', '/api/backtests', {
        token,
        body: {
          candidate: { rules: [{ id: 'fail', version: 1 }] },
          source: { topic: input, offsets: { '0': [0, 1000] } },
        },
      });
      assert.equal(past.status, 400);
      assert.match(
        (past.body as { debugMessage: string }).debugMessage,
        /source\.offsets\.0: \[0, 1000\] is outside partition 0 of/,
      );
      // a changed candidate: `fail` for u0 only, and a burst from 2 failures on
      const ends = await kcatEndOffsets(input, 3);
      const diff = await backtest({
        candidate: {
          rules: [
            { id: 'fail', pdl: 'action="fail" AND user="u0"' },
            { id: 'burst', pdl: BURST.replace('>= 3', '>= 2') },
          ],
        },
        source: { topic: input, offsets: Object.fromEntries(ends.map((end, p) => [String(p), [0, end]])) },
        first: 1000,
      });
      assert.equal(diff.state, 'done', diff.error);
      const lost = live
        .filter((a) => a._rule.id === 'fail' && a.user !== 'u0')
        .map((a) => a._alert.id)
        .sort();
      assert.deepEqual([...diff.result!.diff.onlyCurrent.first].sort(), lost);
      // the lost alerts' records are those the live engine wrote, field for field
      const byId = (a: Alert, b: Alert) => a._alert.id.localeCompare(b._alert.id);
      assert.deepEqual(
        [...(diff.result!.diff.onlyCurrent.alerts as unknown as Alert[])].sort(byId),
        live.filter((a) => lost.includes(a._alert.id)).sort(byId),
      );
      // the new burst alerts: each user's second failure (a count of 2), one per user
      assert.equal(diff.result!.diff.onlyCandidate.count, users.length);
      const newBursts = (diff.result!.rules.find((r) => r.id === 'burst')!.first as unknown as Alert[]).filter((a) =>
        diff.result!.diff.onlyCandidate.first.includes(a._alert.id),
      );
      assert.deepEqual(newBursts.map((a) => a.user).sort(), users);
      assert.equal(diff.result!.diff.both.count, expected - lost.length);

      // nothing was written: the same topics, the same end offsets
      assert.deepEqual(await topicNames(settings['weir.topic.prefix']!, input), topicsBefore);
      assert.deepEqual([await kcatEndOffsets(input, 3), (await liveAlerts()).length], offsetsBefore);
    });

    test('a topology of two correlation stages (PDL_EXPRESSION, then APPLY_RULES): the backtest of it gives the live alert ids', async () => {
      const first = wave(0);
      const second = wave(1);
      await produceAt(staged, first, 0);
      // wave 0 brings no user to 3 failures: nothing passes the first stage; the engine must have read it
      // (and routed it to the first stage) before wave 1 comes, as for the other topology
      await waitFor(
        'wave 0 committed by the engine on the staged topic',
        async () => {
          const group = await tn.call('GET', `/api/consumer-groups/${settings['weir.application.id']}`, { token });
          const partitions = (
            (group.body as { partitions?: { topic: string; committedOffset: number | null }[] }).partitions ?? []
          ).filter((p) => p.topic === staged);
          const committed = partitions.reduce((n, p) => n + (p.committedOffset ?? 0), 0);
          return committed >= first.length ? true : undefined;
        },
        60_000,
      );
      await new Promise((r) => setTimeout(r, 1000));
      await produceAt(staged, second, first.length);
      const failures = second.filter((r) => r.value.includes('"fail"')).length;
      await waitFor(
        'the staged alerts',
        async () => ((await liveAlerts(staged)).length >= failures ? true : undefined),
        90_000,
      );
      await new Promise((r) => setTimeout(r, 1500));
      const live = await liveAlerts(staged);
      assert.equal(live.length, failures, 'one streak alert per wave-1 failure');
      for (const candidate of [{ topology: 2 }, { pipeline: 2 }]) {
        const what = JSON.stringify(candidate);
        const result = (
          await backtest({ candidate, source: { topic: staged, from: t0, to: t0 + 3600_000 }, first: 100 })
        ).result!;
        assert.deepEqual(
          result.rules.map((r) => [r.id, r.alerts, (r.first as unknown as Alert[]).map((a) => a._alert.id).sort()]),
          [['streak', failures, live.map((a) => a._alert.id).sort()]],
          what,
        );
        assert.deepEqual(
          [result.diff.onlyCandidate.count, result.diff.onlyCurrent.count, result.diff.both.count],
          [0, 0, failures],
          what,
        );
      }
    });
  });
}
