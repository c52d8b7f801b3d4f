import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StoredRule } from '@weir/contract';
import { Backtests, type BacktestKafka } from '../../src/backtests/backtests.ts';
import { rulesSubject } from '../../src/backtests/backtest-evaluator.ts';
import type { BacktestPlan } from '../../src/backtests/backtest-request.ts';
import type { RangeReader } from '../../src/backtests/range-reader.ts';
import type { FetchedRecord } from '../../src/stream/records.ts';

const rule = {
  id: 'fail',
  name: 'fail',
  description: '',
  pdl: 'action="fail"',
  annotations: [],
  enabled: true,
} as unknown as StoredRule;
const noLookups = { get: () => undefined };

/** A topic `slow` of 2 partitions × 10 records whose reader yields one record per `stepMs` (until aborted). */
function slowKafka(stepMs: number): BacktestKafka {
  const reader = {
    timeRange: async () => [
      { partition: 0, start: 0n, end: 10n },
      { partition: 1, start: 0n, end: 10n },
    ],
    async *read(topic: string, _ranges: unknown, signal: AbortSignal) {
      for (let i = 0; i < 20 && !signal.aborted; i++) {
        await new Promise((r) => setTimeout(r, stepMs));
        const value = Buffer.from(JSON.stringify({ action: 'fail', n: i }));
        yield [
          {
            topic,
            partition: i % 2,
            offset: BigInt(i >> 1),
            key: undefined,
            value,
            timestamp: BigInt(i),
          } as unknown as FetchedRecord,
        ];
      }
    },
  } as unknown as RangeReader;
  return { partitions: async (topic) => (topic === 'slow' ? 2 : undefined), reader: () => reader };
}

/** A topic `slow` of one partition whose reader yields its 5,000 records in one fetch (as a large fetch does). */
function oneFetchKafka(): BacktestKafka {
  const records = Array.from(
    { length: 5000 },
    (_, n) =>
      ({
        topic: 'slow',
        partition: 0,
        offset: BigInt(n),
        key: undefined,
        value: Buffer.from(JSON.stringify({ action: 'fail', n })),
        timestamp: BigInt(n),
      }) as unknown as FetchedRecord,
  );
  const reader = {
    timeRange: async () => [{ partition: 0, start: 0n, end: 5000n }],
    async *read() {
      yield records;
    },
  } as unknown as RangeReader;
  return { partitions: async () => 1, reader: () => reader };
}

const limits = { maxEvents: 100, deadlineSeconds: 600, maxPerUser: 1 };
const plan: BacktestPlan = {
  label: 'fail',
  candidate: rulesSubject([rule]),
  current: rulesSubject([]),
  rules: ['fail'],
  input: { kind: 'times', topic: 'slow', from: 0, to: 1 },
  first: 2,
};

async function until(backtests: Backtests, id: string, state: string): Promise<ReturnType<Backtests['get']>> {
  for (let i = 0; i < 500; i++) {
    const s = backtests.get(id, 'ann', false);
    if (s.state === state) return s;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never ${state}: ${JSON.stringify(backtests.get(id, 'ann', false))}`);
}

describe('Backtests: limits, cancel, deadline, progress', () => {
  test('one per user at a time: a second is 429 naming the setting; cancel frees the slot; another user is not limited by it', async () => {
    const b = new Backtests(() => limits, slowKafka(20));
    const first = await b.start('ann', plan, noLookups);
    await assert.rejects(b.start('ann', plan, noLookups), {
      message:
        'You already have 1 backtests queued or running (setting weir.backtest.max-per-user); wait for one to end or cancel one (DELETE /api/backtests/{id}).',
    });
    const bob = await b.start('bob', plan, noLookups);
    assert.throws(() => b.get(bob.id, 'ann', false), { message: /^No backtest / });
    assert.equal(b.get(bob.id, 'root', true).user, 'bob');
    const seen: string[] = [];
    b.subscribe(first.id, 'ann', false, (s) => seen.push(s.state));
    const cancelled = b.cancel(first.id, 'ann', false);
    assert.equal(cancelled.state, 'cancelled');
    assert.equal(cancelled.error, 'cancelled by ann');
    assert.equal(seen.at(-1), 'cancelled');
    const again = await b.start('ann', plan, noLookups);
    const done = await until(b, again.id, 'done');
    assert.deepEqual(done.progress.share, 1);
    assert.equal(done.progress.eventsRead, 20);
    assert.deepEqual(
      done.result!.rules.map((r) => [r.id, r.alerts, r.first.length]),
      [['fail', 20, 2]],
    );
    assert.deepEqual(done.result!.diff.onlyCurrent, { count: 0, first: [], alerts: [] });
    assert.equal(done.result!.diff.onlyCandidate.count, 20);
    b.close();
  });

  test('more records than weir.backtest.max-events: refused before it starts; an unknown topic names it', async () => {
    const b = new Backtests(() => ({ ...limits, maxEvents: 19 }), slowKafka(1));
    await assert.rejects(b.start('ann', plan, noLookups), {
      message:
        'The backtest request is not valid: source: the range holds 20 records, more than the 19 a backtest may read (setting weir.backtest.max-events); narrow it',
    });
    await assert.rejects(
      b.start('ann', { ...plan, input: { kind: 'times', topic: 'gone', from: 0, to: 1 } }, noLookups),
      {
        message: "The backtest request is not valid: source.topic: topic 'gone' does not exist",
      },
    );
    assert.deepEqual(b.list('ann', false), []);
  });

  test('a large fetch is processed in slices of 1000 records: a cancel stops it after the slice it came in', async () => {
    const b = new Backtests(() => ({ ...limits, maxEvents: 5000 }), oneFetchKafka());
    const s = await b.start('ann', plan, noLookups);
    const seen: number[] = [];
    b.subscribe(s.id, 'ann', false, (status) => {
      seen.push(status.progress.eventsRead);
      if (status.state === 'running' && status.progress.eventsRead > 0) b.cancel(s.id, 'ann', false);
    });
    const cancelled = await until(b, s.id, 'cancelled');
    assert.equal(cancelled.progress.eventsRead, 1000);
    // the first slice's progress, then the cancel
    assert.deepEqual(seen, [1000, 1000]);
  });

  test('weir.backtest.max-events-per-second: the events read no faster than the limit; a cancel ends the wait at once', async () => {
    const kafka = oneFetchKafka();
    const b = new Backtests(() => ({ ...limits, maxEvents: 5000, maxPerUser: 2, maxEventsPerSecond: 10_000 }), kafka);
    const started = Date.now();
    const done = await until(b, (await b.start('ann', plan, noLookups)).id, 'done');
    assert.equal(done.result?.events, 5000);
    // 5 slices of 1000: the last due at 0.5 s, the fourth at 0.4 s (it waits after each slice)
    assert.ok(Date.now() - started >= 400, `read 5000 events in ${Date.now() - started} ms at 10,000 a second`);
    assert.ok(done.progress.eventsPerSecond <= 12_500, `${done.progress.eventsPerSecond} events/s`);

    const slow = new Backtests(() => ({ ...limits, maxEvents: 5000, maxEventsPerSecond: 100 }), kafka);
    const s = await slow.start('ann', plan, noLookups);
    await until(slow, s.id, 'running');
    await new Promise((r) => setTimeout(r, 50));
    const cancelledAt = Date.now();
    slow.cancel(s.id, 'ann', false);
    const cancelled = await until(slow, s.id, 'cancelled');
    assert.equal(cancelled.progress.eventsRead, 1000, 'one slice read, then the wait (10 s) cut short');
    assert.ok(Date.now() - cancelledAt < 1000);
  });

  test('the deadline: failed, saying how far it got', async () => {
    const b = new Backtests(() => ({ ...limits, deadlineSeconds: 1 }), slowKafka(200));
    const s = await b.start('ann', plan, noLookups);
    const failed = await until(b, s.id, 'failed');
    assert.match(
      failed.error!,
      /^the deadline of 1 s passed after reading \d of 20 events \(setting weir\.backtest\.deadline-seconds\); narrow the range$/,
    );
  });
});
