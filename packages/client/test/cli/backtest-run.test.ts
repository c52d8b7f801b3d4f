import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile } from '@weir/pdl';
import { Backtest } from '../../src/cli/backtest-run.ts';
import type { BacktestRule } from '../../src/cli/backtest-rules.ts';

/** `weirctl backtest`'s evaluator: rules over events in file order, correlations on the events' own time, closed at the end. */
const rule = (id: string, pdl: string, enabled = true): BacktestRule => ({
  id,
  where: `rules/${id}.pdl`,
  source: 'pdl',
  enabled,
  pdl,
  compiled: compile(pdl, { stateId: `rule:${id}` }),
});

const T = Date.UTC(2019, 4, 1, 12);

test('plain rules count each matching event with its position; a disabled rule runs on nothing', () => {
  const bt = new Backtest([rule('root', 'user="root"'), rule('off', 'user="root"', false)], 2);
  ['root', 'alice', 'root', 'root'].forEach((user, i) => bt.event({ user, _time: T + i }, { line: i + 1 }));
  const r = bt.finish();
  assert.equal(r.events, 4);
  assert.deepEqual(
    r.rules.map((o) => [o.id, o.enabled, o.matches, o.first]),
    [
      ['root', true, 3, [{ line: 1 }, { line: 3 }]],
      ['off', false, 0, []],
    ],
  );
});

test('a correlation fires on the event that completes it, on years-old event time; a window still open closes at the end', () => {
  const fails = rule('fails', 'status="failed" | event_count timespan=1m group_by user where _aggregation.value >= 3');
  const bt = new Backtest([fails], 10);
  const events = [
    { user: 'bob', status: 'failed', _time: T },
    { user: 'bob', status: 'failed', _time: T + 10_000 },
    { user: 'amy', status: 'failed', _time: T + 11_000 },
    { user: 'bob', status: 'failed', _time: T + 20_000 },
    { user: 'amy', status: 'failed' },
    { user: 'amy', status: 'failed', _time: T + 30_000 },
  ];
  events.forEach((e, i) => bt.event(e, { index: i }));
  const outcome = bt.finish().rules[0]!;
  assert.equal(outcome.matches, 2);
  assert.equal(outcome.lateEvents, 0);
  // bob's third failure in the minute, and amy's three (one without _time takes the stream time so far)
  const positions = outcome.first.map((p) =>
    'index' in p ? p.index : 'end' in p ? 'end' : 'line' in p ? p.line : 'offset',
  );
  assert.ok(positions.length === 2 && positions.every((p) => p === 3 || p === 5 || p === 'end'), String(positions));
});

test('the same events give the same outcome on a second run (fresh state per Backtest)', () => {
  const run = () => {
    const bt = new Backtest(
      [rule('fails', 'status="failed" | event_count timespan=1m group_by user where _aggregation.value >= 2')],
      5,
    );
    for (let i = 0; i < 20; i++)
      bt.event({ user: `u${i % 3}`, status: 'failed', _time: T + i * 7_000 }, { line: i + 1 });
    return bt.finish();
  };
  assert.deepEqual(run(), run());
});
