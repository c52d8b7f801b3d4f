import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BacktestStatus } from '@weir/contract';
import { compile } from '@weir/pdl';
import { parseOffsets, resultOf, sourceOf } from '../../src/cli/backtest-server.ts';
import type { BacktestRule } from '../../src/cli/backtest-rules.ts';

/** The pure parts of `weirctl backtest --topic` (the run against a node: test/integration/cli-backtest.test.ts). */
const rule = (id: string, enabled = true): BacktestRule => ({
  id,
  where: `rules/${id}.pdl`,
  source: 'pdl',
  enabled,
  pdl: 'user="root"',
  compiled: compile('user="root"'),
});

test('--offsets: PARTITION:START-END, repeated or comma-separated; anything else names the bad part', () => {
  assert.deepEqual(parseOffsets(['0:0-10', '1:5-7,2:0-0']), { '0': [0, 10], '1': [5, 7], '2': [0, 0] });
  assert.throws(() => parseOffsets(['0:10']), {
    name: 'UsageError',
    message: '--offsets 0:10: give PARTITION:START-END (start included, end excluded), e.g. 0:0-1000',
  });
  assert.throws(() => parseOffsets(['0:0-1', '0:2-3']), { message: '--offsets: partition 0 is given twice' });
});

test('the source: --from/--to as given (epoch ms as numbers), or --offsets; a missing or doubled range is a usage error', () => {
  assert.deepEqual(sourceOf({ from: '2026-11-26T09:00:00Z', to: '1764151200000' }, 'logins'), {
    topic: 'logins',
    from: '2026-11-26T09:00:00Z',
    to: 1764151200000,
  });
  assert.deepEqual(sourceOf({ offsets: ['0:0-8'] }, 'logins'), { topic: 'logins', offsets: { '0': [0, 8] } });
  assert.throws(() => sourceOf({ from: '1' }, 'logins'), {
    message:
      'backtest --topic logins: give the range: --from TIME --to TIME (ISO 8601 or epoch ms) or --offsets PARTITION:START-END',
  });
  assert.throws(() => sourceOf({ from: '1', to: '2', offsets: ['0:0-1'] }, 'logins'), {
    message: 'backtest: give --from and --to, or --offsets, not both',
  });
});

test("the server's result in the in-process shape: per local rule its alerts and the partition:offset of the first", () => {
  const alert = (partition: number, offset: number) => ({
    user: 'root',
    _alert: { id: 'x', source: { topic: 'logins', partition, offset } },
  });
  const status = {
    id: 'b1',
    state: 'done',
    result: {
      events: 9,
      rules: [
        { id: 'root', alerts: 3, first: [alert(0, 4), alert(1, 2), { _alert: { id: 'y', source: null } }] },
        { id: 'off', alerts: 0, first: [] },
      ],
      diff: {
        onlyCandidate: { count: 0, first: [] },
        onlyCurrent: { count: 0, first: [] },
        both: { count: 3, first: [] },
      },
      unreadable: 0,
    },
  } as unknown as BacktestStatus;
  assert.deepEqual(resultOf([rule('root'), rule('off', false)], status), {
    events: 9,
    rules: [
      {
        id: 'root',
        where: 'rules/root.pdl',
        source: 'pdl',
        enabled: true,
        matches: 3,
        first: [{ partition: 0, offset: 4 }, { partition: 1, offset: 2 }, { end: true }],
        evaluationErrors: 0,
        lateEvents: 0,
      },
      {
        id: 'off',
        where: 'rules/off.pdl',
        source: 'pdl',
        enabled: false,
        matches: 0,
        first: [],
        evaluationErrors: 0,
        lateEvents: 0,
      },
    ],
  });
});
