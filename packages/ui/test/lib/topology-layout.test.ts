import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pipeline, Task, Topology } from '@weir/client';
import { buildTopologyGraph, rulesLine, type TopologyFigures } from '../../src/lib/topology-layout.ts';

const serde = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const topic = (name: string) => ({ name, keySerde: serde, valueSerde: serde });
const topology: Topology = {
  id: 1,
  name: 'auth',
  pipelines: [1, 2],
  enabled: true,
  group: 'default',
  input: topic('auth-logs'),
  output: [topic('auth-alerts'), topic('audit')],
};
const pipelines = new Map<number, Pipeline>([
  [1, { id: 1, name: 'parse', tasks: [1] }],
  [2, { id: 2, name: 'detect', tasks: [2, 3] }],
]);
const tasks = new Map<number, Task>([
  [1, { id: 1, name: 'kv', function: 'PARSE_KV', definition: {} }],
  [2, { id: 2, name: 'time', function: 'TIMESTAMP', definition: { field: 't' } }],
  [3, { id: 3, name: 'rules', function: 'APPLY_RULES', definition: { rules: ['r'] } }],
]);
const figures: TopologyFigures = {
  inRate: 12.34,
  outRate: new Map([['auth-alerts', 0.5]]),
  deadLetters: new Map([
    ['time', 3],
    ['decode', 1],
  ]),
};

test('the graph runs left to right: input topic, the tasks of each pipeline in order, output topics', () => {
  const { nodes } = buildTopologyGraph(topology, pipelines, tasks, figures);
  const x = (label: string) => nodes.find((n) => String(n.data.label).startsWith(label))!.position.x;
  const order = ['⇢ auth-logs', 'kv (PARSE_KV)', 'time (TIMESTAMP)', 'rules (APPLY_RULES)', 'auth-alerts ⇢'];
  for (let i = 1; i < order.length; i++)
    assert.ok(x(order[i]!) > x(order[i - 1]!), `${order[i]} right of ${order[i - 1]}`);
  assert.equal(x('audit ⇢'), x('auth-alerts ⇢'), 'the outputs share the last column');
});

test('each pipeline is a box around its own tasks', () => {
  const { nodes } = buildTopologyGraph(topology, pipelines, tasks, figures);
  const box = nodes.find((n) => n.data.label === 'pipeline 2 · detect')!;
  for (const label of ['time (TIMESTAMP)', 'rules (APPLY_RULES)']) {
    const n = nodes.find((m) => String(m.data.label).startsWith(label))!;
    assert.ok(
      n.position.x >= box.position.x && n.position.x + n.width! <= box.position.x + box.width!,
      `${label} inside the box`,
    );
    assert.ok(n.position.y >= box.position.y && n.position.y + n.height! <= box.position.y + box.height!);
  }
  const kv = nodes.find((m) => String(m.data.label).startsWith('kv'))!;
  assert.ok(kv.position.x + kv.width! < box.position.x, "the first pipeline's task is outside the second box");
});

test('live records/s on the edge out of the input and into each output; dead letters on their node', () => {
  const { nodes, edges } = buildTopologyGraph(topology, pipelines, tasks, figures);
  assert.deepEqual(
    edges.map((e) => [e.source, e.target, e.label]),
    [
      ['topic-in-auth-logs', 'p0-t0', '12 rec/s'],
      ['p0-t0', 'p1-t0', undefined],
      ['p1-t0', 'p1-t1', undefined],
      ['p1-t1', 'topic-out-auth-alerts', '0.5 rec/s'],
      ['p1-t1', 'topic-out-audit', '0.0 rec/s'],
      ['p1-t1', 'topic-alerts', 'alerts'],
      ['p1-t1', 'topic-dlq', 'dead letters'],
    ],
  );
  assert.ok(nodes.some((n) => n.data.label === 'time (TIMESTAMP) · 3 dead letters'));
  assert.ok(
    nodes.some((n) => n.data.label === '⇢ auth-logs · 1 dead letter'),
    'decode failures count on the input',
  );
  assert.ok(
    nodes.some((n) => n.data.label === 'auth-logs-dlq ⇢ · 4 dead letters'),
    'the dead-letter topic counts them all',
  );
});

test('side paths, dashed: each APPLY_RULES task to the alerts topic, the last step to the input-dlq topic', () => {
  const two = new Map(tasks).set(4, {
    id: 4,
    name: 'more',
    function: 'APPLY_RULES',
    definition: { rules: ['a', 'b'] },
  });
  const both = new Map(pipelines).set(3, { id: 3, name: 'more', tasks: [4, 1] });
  const { nodes, edges } = buildTopologyGraph({ ...topology, pipelines: [3, 2] }, both, two, figures);
  assert.deepEqual(
    edges.filter((e) => e.dashed).map((e) => [e.source, e.target, e.label]),
    [
      ['p0-t0', 'topic-alerts', 'alerts'],
      ['p1-t1', 'topic-alerts', 'alerts'],
      ['p1-t1', 'topic-dlq', 'dead letters'],
    ],
  );
  assert.ok(edges.filter((e) => !e.dashed).every((e) => !e.target.startsWith('topic-alerts')));
  const x = (id: string) => nodes.find((n) => n.id === id)!.position.x;
  assert.ok(x('topic-alerts') > x('p1-t1') && x('topic-dlq') > x('p1-t1'), 'the side topics sit after the tasks');
  // Without an APPLY_RULES task there is no alerts topic; the dead-letter topic is always there.
  const plain = buildTopologyGraph({ ...topology, pipelines: [1] }, pipelines, tasks, figures);
  assert.deepEqual(
    plain.nodes.filter((n) => n.type === 'output').map((n) => n.data.label),
    ['auth-alerts ⇢', 'audit ⇢', 'auth-logs-dlq ⇢ · 4 dead letters'],
  );
});

test("an APPLY_RULES node lists its rules' ids: the first three, each cut at 24 characters, then +N more", () => {
  const { nodes } = buildTopologyGraph(topology, pipelines, tasks, figures);
  assert.equal(nodes.find((n) => n.id === 'p1-t1')!.data.label, 'rules (APPLY_RULES)\nrules: r');
  assert.equal(rulesLine([]), 'no rule');
  assert.equal(rulesLine(['a', 'b', 'c']), 'a, b, c');
  assert.equal(rulesLine(['a', 'b', 'c', 'd', 'e']), 'a, b, c +2 more');
  assert.equal(rulesLine(['proc-creation-win-susp-powershell-enc', 'b']), 'proc-creation-win-susp-…, b');
});

test('before the first rate sample the edges say so; a missing pipeline or task is drawn as missing', () => {
  const broken: Topology = { ...topology, pipelines: [1, 9] };
  const { nodes, edges } = buildTopologyGraph(broken, pipelines, new Map(), {
    inRate: undefined,
    outRate: new Map(),
    deadLetters: new Map(),
  });
  assert.equal(edges[0]!.label, '… rec/s');
  assert.ok(nodes.some((n) => n.data.label === 'task 1 does not exist'));
  assert.ok(nodes.some((n) => n.data.label === 'pipeline 9 does not exist'));
});
