import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  consumerGroupDetail,
  consumerGroupDetailSchema,
  consumerGroupList,
  consumerGroupParams,
  consumerGroupSummarySchema,
  lagHistory,
  lagHistorySchema,
  resetOffsetsBody,
  resetOffsetsResult,
  resetOffsetsResultSchema,
  type ConsumerGroupDetail,
  type ConsumerGroupSummary,
  type LagHistory,
  type ResetOffsetsRequest,
} from '../src/consumer-groups.ts';
import { violationsOf } from './helpers/ajv.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<_T extends true>(): void {}

const summary: ConsumerGroupSummary = {
  id: 'weir-default',
  state: 'Stable',
  members: 2,
  lag: 7,
  topologies: [{ id: 1, name: 'auth' }],
};
const detail: ConsumerGroupDetail = {
  ...summary,
  protocolType: 'consumer',
  protocol: 'range',
  memberDetails: [{ id: 'm-1', clientId: 'c', host: '/127.0.0.1', assignments: [{ topic: 'in', partitions: [0, 1] }] }],
  partitions: [
    { topic: 'in', partition: 0, committedOffset: 3, endOffset: 10, lag: 7, member: 'm-1' },
    { topic: 'in', partition: 1, committedOffset: null, endOffset: 0, lag: 0, member: null },
  ],
};

test('the list, a group and its partitions: every field required in the full schemas; the declared answers accept them', () => {
  assert.deepEqual(violationsOf(consumerGroupSummarySchema)(summary), []);
  assert.deepEqual(violationsOf(consumerGroupList)([summary]), []);
  assert.deepEqual(violationsOf(consumerGroupDetailSchema)(detail), []);
  assert.deepEqual(violationsOf(consumerGroupDetail)(detail), []);
  assert.deepEqual(violationsOf(consumerGroupDetailSchema)(summary).sort(), [
    '/ required',
    '/ required',
    '/ required',
    '/ required',
  ]);
  assert.deepEqual(violationsOf(consumerGroupDetail)({ ...detail, partitions: [{ committedOffset: 'x' }] }), [
    '/partitions/0/committedOffset type',
  ]);
  assert.deepEqual(violationsOf(consumerGroupParams)({ id: 'g' }), []);
});

test('the lag history and a reset: their answers and the reset body', () => {
  const history: LagHistory = {
    id: 'g',
    sampleSeconds: 30,
    keepMinutes: 60,
    samples: [{ time: '2026-11-26T10:00:00.000Z', lag: 7, partitions: [{ topic: 'in', partition: 0, lag: 7 }] }],
  };
  assert.deepEqual(violationsOf(lagHistorySchema)(history), []);
  assert.deepEqual(violationsOf(lagHistory)(history), []);
  const reset = { id: 'g', offsets: [{ topic: 'in', partition: 0, offset: 0 }] };
  assert.deepEqual(violationsOf(resetOffsetsResultSchema)(reset), []);
  assert.deepEqual(violationsOf(resetOffsetsResult)(reset), []);
  assert.deepEqual(violationsOf(resetOffsetsBody)({ to: 'timestamp', timestamp: 1, topics: ['in'] }), []);
  assert.deepEqual(violationsOf(resetOffsetsBody)({ to: 'yesterday' }), ['/to enum']);
  assert.deepEqual(violationsOf(resetOffsetsBody)({ to: 'earliest', topics: [] }), ['/topics minItems']);
});

test('the types are the schemas read as TypeScript', () => {
  expectType<Equal<ConsumerGroupDetail['partitions'][number]['committedOffset'], number | null>>();
  expectType<Equal<ConsumerGroupDetail['partitions'][number]['member'], string | null>>();
  expectType<Equal<ResetOffsetsRequest['to'], 'earliest' | 'latest' | 'timestamp' | 'offset'>>();
  expectType<Equal<ConsumerGroupSummary['topologies'], { id: number; name: string }[]>>();
});
