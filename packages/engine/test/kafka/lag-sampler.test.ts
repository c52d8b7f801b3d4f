import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GroupLag } from '../../src/kafka/consumer-groups.ts';
import { LagSampler } from '../../src/kafka/lag-sampler.ts';

const lagOf = (id: string, ...lags: number[]): GroupLag => ({
  id,
  partitions: lags.map((lag, partition) => ({ topic: 't', partition, lag })),
});

test('samples every group, totals the partitions, keeps each sample for keepMs', async () => {
  let now = 1_000;
  let answer: GroupLag[] = [lagOf('a', 1, 2), lagOf('b', 5)];
  const sampler = new LagSampler(
    async () => answer,
    { intervalMs: 10, keepMs: 25, maxGroups: 10 },
    (err) => assert.fail(err),
    () => now,
  );
  await sampler.sample();
  now += 10;
  answer = [lagOf('a', 0, 4)];
  await sampler.sample();
  assert.deepEqual(sampler.history('a'), [
    { time: 1_000, lag: 3, partitions: lagOf('a', 1, 2).partitions },
    { time: 1_010, lag: 4, partitions: lagOf('a', 0, 4).partitions },
  ]);
  assert.deepEqual(sampler.history('b'), [{ time: 1_000, lag: 5, partitions: lagOf('b', 5).partitions }]);
  now += 20;
  await sampler.sample();
  // The first sample (30 ms old) has expired; b, gone since, loses its history with it.
  assert.deepEqual(
    sampler.history('a').map((s) => s.time),
    [1_010, 1_030],
  );
  assert.deepEqual(sampler.history('b'), []);
  assert.deepEqual(sampler.history('never'), []);
});

test('at most maxGroups groups get a history', async () => {
  const sampler = new LagSampler(
    async () => [lagOf('a', 1), lagOf('b', 1), lagOf('c', 1)],
    { intervalMs: 10, keepMs: 1000, maxGroups: 2 },
    (err) => assert.fail(err),
  );
  await sampler.sample();
  assert.deepEqual(
    ['a', 'b', 'c'].map((id) => sampler.history(id).length),
    [1, 1, 0],
  );
});

test('start samples on its interval and reports failures; an interval of 0 never samples', async () => {
  const errors: string[] = [];
  let calls = 0;
  const sampler = new LagSampler(
    async () => {
      calls++;
      if (calls === 2) throw new Error('cluster away');
      return [lagOf('a', calls)];
    },
    { intervalMs: 5, keepMs: 60_000, maxGroups: 10 },
    (err) => errors.push(err.message),
  );
  sampler.start();
  while (calls < 4) await new Promise((resolve) => setTimeout(resolve, 5));
  await sampler.stop();
  assert.deepEqual(errors, ['cluster away']);
  assert.ok(sampler.history('a').length >= 2);

  let never = 0;
  const off = new LagSampler(
    async () => (never++, []),
    { intervalMs: 0, keepMs: 1000, maxGroups: 10 },
    () => {},
  );
  off.start();
  await new Promise((resolve) => setTimeout(resolve, 30));
  await off.stop();
  assert.equal(never, 0);
});
