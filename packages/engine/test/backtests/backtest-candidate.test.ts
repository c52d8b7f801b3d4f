import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planBacktest } from '../../src/backtests/backtest-request.ts';
import { catalog, source, stored, tasks } from './catalog-fixture.ts';

/** Pipelines and topologies as candidates, through the request's plan (backtest-candidate.ts). */
test('a pipeline as candidate: its tasks (a version of it, or as stored), the rules in force; the pipeline in force as the current side', () => {
  const plan = planBacktest({ candidate: { pipeline: 1, version: 1 }, source }, catalog);
  assert.equal(plan.label, 'pipeline 1 version 1');
  assert.deepEqual(plan.candidate, { tasks: [tasks['2']], rules: [stored], valueType: 'String' });
  assert.deepEqual(plan.current, { tasks: [tasks['1'], tasks['2']], rules: [stored], valueType: 'String' });
  assert.deepEqual(plan.rules, ['fail', 'other']);
  const now = planBacktest({ candidate: { pipeline: 1 }, source }, catalog);
  assert.equal(now.label, 'pipeline 1');
  assert.deepEqual(now.candidate, now.current);
});

test("a topology as candidate: its pipelines' tasks one after another, decoded by its input's value serde", () => {
  const plan = planBacktest({ candidate: { topology: 5 }, source }, catalog);
  assert.equal(plan.label, 'topology 5');
  assert.deepEqual(plan.candidate, { tasks: [tasks['1'], tasks['2']], rules: [stored], valueType: 'String' });
  assert.deepEqual(plan.current, plan.candidate);
});

test('refusals of a pipeline or topology candidate name the field', () => {
  const refused = (candidate: unknown, message: string) =>
    assert.throws(() => planBacktest({ candidate, source }, catalog), {
      message: `The backtest request is not valid: ${message}`,
    });
  refused(
    { pipeline: 9 },
    "candidate.pipeline: pipeline 9 does not exist (give version to backtest a deleted one's version)",
  );
  refused({ pipeline: 'p' }, 'candidate.pipeline: "p" is not a pipeline id (a whole number)');
  refused({ pipeline: 1, version: 7 }, "candidate.version: Pipeline '1' has no version 7; it has versions 1 to 3.");
  refused(
    { pipeline: 1, version: 0 },
    "candidate.version: '0' is not a version number; versions are whole numbers from 1",
  );
  refused(
    { pipeline: 1, version: 3 },
    'candidate.version: version 3 of pipeline 1 records its deletion and holds no pipeline',
  );
  refused(
    { pipeline: 2 },
    "candidate.pipeline: pipeline 2: task 3 (broken) does not compile: definition.pdl: PDL line 1, column 8: expected a value after '=', found end of input",
  );
  refused(
    { topology: 6 },
    "candidate.topology: topology 6 does not exist (give version to backtest a deleted one's version)",
  );
  refused({ pipeline: 1, topology: 5 }, 'candidate: gives pipeline and topology; give one');
  refused({ pipeline: 1, rules: [] }, 'candidate: gives rules and pipeline; give one');
  refused(
    { topology: 5, note: 'x' },
    'candidate.note: is not a field of a topology candidate (accepted: topology, version)',
  );
  refused({ rules: [], version: 1 }, 'candidate.version: is not a field of a rules candidate (accepted: rules)');
});

test('an inline pipeline: stored task ids and tasks given whole, each checked; the pipeline in force with its id as the current side', () => {
  const filter = { id: 9, name: 'bob', function: 'FILTER', definition: { type: 'pdl', value: 'user="bob"' } };
  const plan = planBacktest({ candidate: { pipeline: { id: 1, tasks: [filter, 2] } }, source }, catalog);
  assert.equal(plan.label, 'pipeline 1 (inline)');
  assert.deepEqual(plan.candidate, {
    tasks: [{ ...filter, description: '' }, tasks['2']],
    rules: [stored],
    valueType: 'String',
  });
  assert.deepEqual(plan.current, { tasks: [tasks['1'], tasks['2']], rules: [stored], valueType: 'String' });
  assert.deepEqual(plan.rules, ['fail', 'other']);
  const anonymous = planBacktest({ candidate: { pipeline: { tasks: [2] } }, source }, catalog);
  assert.deepEqual([anonymous.label, anonymous.current], ['an inline pipeline', { tasks: [], rules: [] }]);

  const refused = (candidate: unknown, message: string) =>
    assert.throws(() => planBacktest({ candidate, source }, catalog), {
      message: `The backtest request is not valid: ${message}`,
    });
  refused(
    { pipeline: { tasks: [] } },
    'candidate.pipeline.tasks: must be a non-empty array: task ids, or tasks {id, name, function, definition}',
  );
  refused({ pipeline: { tasks: [7] } }, 'candidate.pipeline.tasks[0]: task 7 does not exist');
  refused(
    { pipeline: { tasks: [2, 'x'] } },
    'candidate.pipeline.tasks[1]: must be a task id or a task {id, name, function, definition}',
  );
  refused(
    { pipeline: { tasks: [{ id: 1, function: 'EVAL', definition: { eval: 'x' } }] } },
    'candidate.pipeline.tasks[0]: task 1 (EVAL) does not compile: definition.eval: must be array',
  );
  refused(
    { pipeline: { tasks: [{ function: 'FILTER' }] } },
    'candidate.pipeline.tasks[0].id: is required: a task id (a whole number)',
  );
  refused(
    { pipeline: { tasks: [2] }, version: 1 },
    'candidate.version: goes with a stored pipeline ({pipeline: <id>, version}), not an inline one',
  );
  refused(
    { pipeline: { tasks: [2], output: [] } },
    'candidate.pipeline.output: is not a field of an inline pipeline (accepted: id, name, description, tasks)',
  );
});

test('a pipeline in force that cannot run (a task missing): refused as the candidate; as the current side it carries the failure the live engine dead-letters with', () => {
  assert.throws(() => planBacktest({ candidate: { pipeline: 3 }, source }, catalog), {
    message: 'The backtest request is not valid: candidate.pipeline: pipeline 3: task 8 of pipeline 3 does not exist',
  });
  const plan = planBacktest({ candidate: { pipeline: { id: 3, tasks: [2] } }, source }, catalog);
  assert.deepEqual(plan.current, {
    tasks: [],
    rules: [],
    valueType: 'String',
    failure: 'task 8 of pipeline 3 does not exist',
  });
});
