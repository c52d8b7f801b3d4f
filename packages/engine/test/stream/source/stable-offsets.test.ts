import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Admin } from '@platformatic/kafka';
import { stableOffsets } from '../../../src/stream/source/stable-offsets.ts';

const unstable = () => Object.assign(new Error('unstable'), { apiId: 'UNSTABLE_OFFSET_COMMIT' });

/** An admin client whose OffsetFetch answers are the test's, one per call. */
function admin(answers: (() => unknown)[]) {
  const asked: unknown[] = [];
  const a = {
    listConsumerGroupOffsets: (request: unknown) => {
      asked.push(request);
      const answer = answers.shift()!();
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  return { admin: a as unknown as Admin, asked };
}

const committed = [
  {
    groupId: 'g',
    topics: [
      {
        name: 'in',
        partitions: [
          { partitionIndex: 2, committedOffset: 40n },
          { partitionIndex: 0, committedOffset: 7n },
        ],
      },
    ],
  },
];

test('the committed offsets, asked with require_stable, per topic and partition', async () => {
  const { admin: a, asked } = admin([() => committed]);
  const offsets = await stableOffsets(a, 'g', new Map([['in', [0, 2]]]), () => true);
  assert.deepEqual([...offsets.get('in')!], [7n, undefined, 40n]);
  assert.deepEqual(asked, [
    { groups: [{ groupId: 'g', topics: [{ name: 'in', partitionIndexes: [0, 2] }] }], requireStable: true },
  ]);
});

test('an open transaction (UNSTABLE_OFFSET_COMMIT) is waited for; other errors, or a stop, end the wait', async () => {
  const { admin: a, asked } = admin([unstable, unstable, () => committed]);
  assert.deepEqual((await stableOffsets(a, 'g', new Map([['in', [0]]]), () => true)).get('in')?.[0], 7n);
  assert.equal(asked.length, 3);
  await assert.rejects(
    stableOffsets(admin([() => new Error('broker gone')]).admin, 'g', new Map(), () => true),
    /broker gone/,
  );
  await assert.rejects(
    stableOffsets(admin([unstable]).admin, 'g', new Map(), () => false),
    /unstable/,
  );
});
