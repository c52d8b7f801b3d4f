import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfigSnapshot } from '../../src/stream/config-snapshot.ts';
import { PartitionedStateStore } from '../../src/stream/state/partitioned-state.ts';
import { emptyPlan, WorkerPlan } from '../../src/stream/worker-plan.ts';
import { WorkerStats } from '../../src/stream/worker-stats.ts';

const string = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const json = (name: string) => ({ name, keySerde: string, valueSerde: string });

test('a snapshot compiles to the plan, with a warning per broken rule and per topology that cannot run', () => {
  const compiler = new WorkerPlan(
    { group: 'default', groupId: 'g', stats: new WorkerStats() },
    new PartitionedStateStore(),
  );
  const snapshot: ConfigSnapshot = {
    version: 2,
    topologies: [
      { id: 1, name: 'ok', pipelines: [], enabled: true, group: 'default', input: json('a'), output: [json('a-out')] },
      { id: 2, name: 'broken', pipelines: [99], enabled: true, group: 'default', input: json('b'), output: [] },
    ],
    pipelines: [],
    tasks: [],
    rules: [{ id: 'r1', name: 'r1', pdl: 'user=', enabled: true }],
  };
  const { plan, warnings } = compiler.compile(snapshot);
  assert.deepEqual([plan.version, plan.inputTopics], [2, ['a', 'b']]);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0]!, /^rule r1 is skipped: /);
  assert.match(warnings[1]!, /^topology broken cannot run: .*; its records go to b-dlq$/);
  assert.deepEqual([emptyPlan.version, emptyPlan.inputTopics], [0, []]);
});
