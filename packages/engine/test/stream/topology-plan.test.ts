import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfigSnapshot } from '../../src/stream/config-snapshot.ts';
import { LookupTables } from '../../src/rules/lookup-tables.ts';
import { RuleBook } from '../../src/rules/rule-book.ts';
import { buildPlan, TaskCache, type PlanEnvironment, type TopologyPlan } from '../../src/stream/topology-plan.ts';
import { WorkerStats } from '../../src/stream/worker-stats.ts';
import { runPipeline } from '../../src/tasks/index.ts';

const string = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const json = (name: string) => ({ name, keySerde: string, valueSerde: string });
const correlation = 'event_count timespan=10m group_by user where _aggregation.value >= 2';

type Topology = ConfigSnapshot['topologies'][number];
function topology(id: number, input: string, pipelines: number[], more: Partial<Topology> = {}): Topology {
  return {
    id,
    name: `t${id}`,
    pipelines,
    enabled: true,
    group: 'default',
    input: json(input),
    output: [json(`${input}-out`)],
    ...more,
  };
}

function snapshot(parts: Partial<ConfigSnapshot>): ConfigSnapshot {
  return { version: 1, topologies: [], pipelines: [], tasks: [], rules: [], ...parts };
}

function environment(rules: ConfigSnapshot['rules'] = [], more: Partial<PlanEnvironment> = {}): PlanEnvironment {
  const lookups = new LookupTables();
  const book = new RuleBook();
  book.update(rules, lookups);
  return { group: 'default', rules: book, lookups, ...more };
}

const applyRules = (id: number, rules: string[]) => ({
  id,
  name: `rules ${id}`,
  function: 'APPLY_RULES',
  definition: { rules },
});
const byName = (plans: readonly TopologyPlan[] | undefined) => (plans ?? []).map((p) => p.name);

test('only the enabled topologies of the node group are planned, grouped by input topic; topics sorted', () => {
  const plan = buildPlan(
    snapshot({
      topologies: [
        topology(1, 'b', []),
        topology(2, 'a', []),
        topology(3, 'b', []),
        topology(4, 'c', [], { enabled: false }),
        topology(5, 'd', [], { group: 'other' }),
      ],
    }),
    environment(),
    new TaskCache(),
  );
  assert.deepEqual(plan.inputTopics, ['a', 'b']);
  assert.deepEqual(plan.outputTopics, ['a-out', 'b-out']);
  assert.deepEqual(byName(plan.byInput.get('b')), ['t1', 't3']);
  assert.deepEqual(byName(plan.byInput.get('a')), ['t2']);
  assert.equal(plan.version, 1);
  assert.equal(plan.stages.size, 0);
});

test('the tasks of the pipelines run in order, as one chain', () => {
  const plan = buildPlan(
    snapshot({
      topologies: [topology(1, 'in', [10, 11])],
      pipelines: [
        { id: 10, name: 'p10', tasks: [2, 1] },
        { id: 11, name: 'p11', tasks: [3] },
      ],
      tasks: [
        { id: 1, name: 'eval', function: 'EVAL', definition: { eval: [{ action: 'set', field: 'b', value: '"2"' }] } },
        { id: 2, name: 'kv', function: 'PARSE_KV', definition: {} },
        { id: 3, name: 'filter', function: 'FILTER', definition: { type: 'pdl', value: 'a="x"' } },
      ],
    }),
    environment(),
    new TaskCache(),
  );
  const [t] = plan.byInput.get('in')!;
  assert.deepEqual(
    t!.tasks.map((task) => task.name),
    ['kv', 'eval', 'filter'],
  );
  assert.equal(t!.failure, undefined);
  const result = runPipeline(t!.tasks, { value: 'a=x', timestamp: 5 });
  assert.deepEqual(
    result.records.map((r) => r.value),
    [{ a: 'x', _raw: 'a=x', b: '2', _time: 5 }],
  );
});

test('a topology that cannot run carries the reason (its records go to the DLQ), the others still run', () => {
  const plan = buildPlan(
    snapshot({
      topologies: [topology(1, 'a', [99]), topology(2, 'b', [10]), topology(3, 'c', [11]), topology(4, 'd', [12])],
      pipelines: [
        { id: 10, name: 'p10', tasks: [42] },
        { id: 11, name: 'p11', tasks: [1] },
        { id: 12, name: 'p12', tasks: [2] },
      ],
      tasks: [
        { id: 1, name: 'bad', function: 'FILTER', definition: { type: 'pdl', value: 'a=' } },
        { id: 2, name: 'ok', function: 'PARSE_KV', definition: {} },
      ],
    }),
    environment(),
    new TaskCache(),
  );
  const failure = (input: string) => plan.byInput.get(input)?.[0]?.failure;
  assert.equal(failure('a'), 'pipeline 99 does not exist');
  assert.equal(failure('b'), 'task 42 of pipeline 10 does not exist');
  assert.match(failure('c') ?? '', /^task 1 \(bad\) does not compile: /);
  assert.equal(failure('d'), undefined);
  assert.deepEqual(plan.byInput.get('c')?.[0]?.tasks, []);
});

test('engine mode: a stage per task that holds a correlation now, named after the group id', () => {
  const rules = [
    { id: 'plain', name: 'plain', pdl: 'user="bob"', enabled: true },
    { id: 'corr', name: 'corr', pdl: correlation, enabled: true },
  ];
  const config = snapshot({
    topologies: [topology(1, 'in', [10])],
    pipelines: [{ id: 10, name: 'p', tasks: [1, 2, 3] }],
    tasks: [
      applyRules(1, ['plain']),
      applyRules(2, ['plain', 'corr']),
      { id: 3, name: 'pdl', function: 'PDL_EXPRESSION', definition: { pdl: correlation } },
    ],
  });
  const plan = buildPlan(config, environment(rules, { groupId: 'g' }), new TaskCache());
  assert.deepEqual([...plan.stages.keys()].sort(), ['g-t1-1-task2-repartition', 'g-t1-1-task3-repartition']);
  const stage = plan.stages.get('g-t1-1-task2-repartition')!;
  assert.deepEqual([stage.taskIndex, stage.topics.changelog, stage.topology.name], [1, 'g-t1-1-task2-changelog', 't1']);
  assert.deepEqual([...(plan.byInput.get('in')![0]!.stages ?? new Map()).keys()], [1, 2]);

  // Outside engine mode (no group id) correlations run in the task: no stages.
  assert.equal(buildPlan(config, environment(rules), new TaskCache()).stages.size, 0);
  // A rule that stops correlating takes its stage with it at the next plan.
  const changed = environment([rules[0]!, { ...rules[1]!, pdl: 'user="eve"' }], { groupId: 'g' });
  assert.deepEqual([...buildPlan(config, changed, new TaskCache()).stages.keys()], ['g-t1-1-task3-repartition']);
});

test('compiled tasks are reused while their definition is unchanged; a changed or unused one is dropped', () => {
  const cache = new TaskCache();
  const env = environment();
  const task = { id: 1, name: 'kv', function: 'PARSE_KV', definition: {} };
  const config = (t: typeof task) =>
    snapshot({ topologies: [topology(1, 'in', [10])], pipelines: [{ id: 10, name: 'p', tasks: [1] }], tasks: [t] });
  const first = buildPlan(config(task), env, cache).byInput.get('in')![0]!.tasks[0];
  assert.strictEqual(buildPlan(config(task), env, cache).byInput.get('in')![0]!.tasks[0], first);
  const renamed = buildPlan(config({ ...task, name: 'kv2' }), env, cache).byInput.get('in')![0]!.tasks[0];
  assert.notStrictEqual(renamed, first);
  assert.notStrictEqual(
    buildPlan(config(task), env, cache).byInput.get('in')![0]!.tasks[0],
    first,
    'swept when a plan did not use it',
  );
});

test('rule matches reported by APPLY_RULES reach weir_rule_matches_total, once per alert', () => {
  const rules = [
    { id: 'r1', name: 'R1', pdl: 'user="bob"', enabled: true },
    { id: 'r2', name: 'R2', pdl: 'port=22', enabled: true },
  ];
  const plan = buildPlan(
    snapshot({
      topologies: [topology(1, 'in', [10])],
      pipelines: [{ id: 10, name: 'p', tasks: [1] }],
      tasks: [applyRules(1, ['r1', 'r2'])],
    }),
    environment(rules),
    new TaskCache(),
  );
  const t = plan.byInput.get('in')![0]!;
  const result = runPipeline(t.tasks, { value: JSON.stringify({ user: 'bob', port: 22 }), timestamp: 1 });
  assert.equal(result.alerts.length, 2);
  runPipeline(t.tasks, { value: JSON.stringify({ user: 'bob' }), timestamp: 2 });
  const stats = new WorkerStats();
  t.ruleMatches.drainInto(stats);
  t.ruleMatches.drainInto(stats);
  assert.deepEqual(stats.drain().counters, [
    ['weir_rule_matches_total', ['r1'], 2],
    ['weir_rule_matches_total', ['r2'], 1],
  ]);
});
