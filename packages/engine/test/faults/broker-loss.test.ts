import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { Admin, FindCoordinatorKeyTypes } from '@platformatic/kafka';
import {
  alertsByUser,
  compareAlerts,
  configureCorrelation,
  produceEvents,
  streamHalf,
  users,
} from '../helpers/correlation-stream.ts';
import { waitFor } from '@weir/test-helpers/engine';
import { KafkaCluster } from '@weir/test-helpers/kafka-cluster';
import { kcatEndOffsets, kcatPartitions, kcatValues } from '@weir/test-helpers/kcat';
import { type FaultRun, faultRun, type Guarantee, waitForAssignment } from '../helpers/node-pair.ts';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { initAdmin } from '../helpers/node-process.ts';

/**
 * Issue 12, item 8: one broker of the three-node cluster is killed with SIGKILL in the middle of the
 * correlation stream: the leader of the alerts topic (Weir's writes must move to another broker), or
 * the coordinator of the node's consumer group (its joins, commits and transactions must move).
 * Weir's own topics have 3 replicas and min.insync.replicas=2, every producer writes with acks=all:
 * nothing may be lost. Counted with kcat: one `every` alert per input event, and every alert of the
 * correlation rule; under exactly_once_v2, read_committed, each exactly once.
 */
const everyRule = { id: 'every-login', pdl: 'action="login"' };

function clusterDir(): string {
  const dir = process.env.WEIR_TEST_CLUSTER_DIR;
  if (!dir) throw new Error('WEIR_TEST_CLUSTER_DIR is not set: run the fault tests through `npm run test:faults`');
  return dir;
}

/** Which broker a run kills, once the node runs and the first half is alerted; `why` names its role. */
type Victim = (run: FaultRun, alertsLeader: number) => Promise<{ broker: number; why: string }>;

async function brokerLoss(t: TestContext, label: string, guarantee: Guarantee, victim: Victim): Promise<void> {
  const cluster = KafkaCluster.open(clusterDir());
  assert.deepEqual(await cluster.liveBrokers(), [1, 2, 3]);
  const options = { label, guarantee, topic: 'loss', outputPartitions: 1 };
  const exactlyOnce = guarantee === 'exactly_once_v2';
  let killed: number | undefined;
  // The killed broker comes back after the node stopped (faultRun stops it first).
  await faultRun(options, async (run) => {
    const { groupId, alertsTopic, input, output } = run;
    const node = await run.startNode();
    const token = await initAdmin(node);
    await configureCorrelation(node, token, input, output, [everyRule]);
    await node.waitRunning(token);
    await waitForAssignment(
      groupId,
      input,
      4,
      { [node.uuid]: (n) => n === 4 },
      120_000,
      'the node to hold every input partition',
    );

    // Weir created its alerts topic with 3 replicas (min.insync.replicas=2 is checked through the API below).
    const alertsPartitions = await kcatPartitions(alertsTopic);
    assert.ok(
      alertsPartitions.every((p) => p.replicas.length === 3),
      JSON.stringify(alertsPartitions),
    );
    const described = await node.call('GET', `/api/topics/${alertsTopic}`, { token });
    assert.equal(described.status, 200, described.text);
    assert.match(described.text, /"min\.insync\.replicas"\s*[,:]\s*"?2"?/);
    // so did it the correlation stage's repartition and changelog topics
    for (const internal of ['repartition', 'changelog']) {
      const name = `${groupId}-logins-1-task1-${internal}`;
      const partitions = await kcatPartitions(name);
      assert.ok(
        partitions.length === 4 && partitions.every((p) => p.replicas.length === 3),
        `${name}: ${JSON.stringify(partitions)}`,
      );
      const res = await node.call('GET', `/api/topics/${name}`, { token });
      assert.equal(res.status, 200, res.text);
      assert.match(res.text, /"min\.insync\.replicas"\s*[,:]\s*"?2"?/, name);
    }

    const first = streamHalf(0);
    await produceEvents(input, first);
    await waitFor(
      'the alerts of the first half',
      async () => compareAlerts(alertsByUser(await kcatValues(alertsTopic))).total >= users,
      120_000,
    );

    const chosen = await victim(run, alertsPartitions[0]!.leader);
    killed = chosen.broker;
    const second = streamHalf(1);
    // The kill lands while Weir works on the first quarter of the second half. The test writes
    // nothing while the cluster has not yet left the dead broker out: a produce that waits for it
    // (acks=all, the dead broker still in sync) is answered with an error, stored all the same once
    // the in-sync set shrinks, and the test's producer would write it twice (seen: 125 to 250
    // events twice per run, which an exactly-once reader then rightly alerts twice).
    await produceEvents(input, second.slice(0, second.length / 2));
    await cluster.kill(killed);
    t.diagnostic(`killed broker ${killed} (${chosen.why}) mid-stream`);
    await waitFor(
      `the cluster to leave broker ${killed} out of ${input}'s leaders and in-sync replicas`,
      async () =>
        (await kcatPartitions(input)).every((p) => p.leader !== chosen.broker && !p.isrs.includes(chosen.broker)),
      120_000,
    );
    await produceEvents(input, second.slice(second.length / 2));

    const expectedEvery = first.length + second.length;
    // the input as any consumer sees it (kcat): every event once, or the reference does not hold
    const inputSeqs = (await kcatValues(input)).map((v) => (JSON.parse(v) as { seq: number }).seq);
    const distinct = new Set(inputSeqs).size;
    assert.equal(
      inputSeqs.length - distinct,
      0,
      `the test's own producer wrote ${inputSeqs.length - distinct} events twice to ${input}`,
    );
    assert.equal(
      distinct,
      expectedEvery,
      `${input} holds ${distinct} of ${expectedEvery} events; partition ends ${(await kcatEndOffsets(input, 4)).join(', ')}`,
    );
    const count = async () => {
      // exactly_once_v2: what a read_committed reader sees
      const values = await kcatValues(alertsTopic, exactlyOnce);
      const seqs = values
        .map((v) => JSON.parse(v) as { _rule?: { id?: string }; seq?: number })
        .filter((a) => a._rule?.id === everyRule.id)
        .map((a) => a.seq);
      return {
        every: new Set(seqs).size,
        repeated: seqs.length - new Set(seqs).size,
        total: values.length,
        correlation: compareAlerts(alertsByUser(values)),
      };
    };
    const result = await waitFor(
      'every alert after the broker loss',
      async () => {
        const c = await count();
        return c.every === expectedEvery && c.correlation.missing.length === 0 ? c : undefined;
      },
      240_000,
    ).catch(async (err: Error) => {
      const c = await count();
      throw new Error(
        `${err.message}: ${c.every} of ${expectedEvery} events, ${c.correlation.missing.length} correlation alerts missing\nnode log:\n${node.output}`,
      );
    });
    t.diagnostic(
      `${guarantee}: after the loss of broker ${killed}: ${result.every} of ${expectedEvery} events alerted (${result.repeated} repeated), ${result.correlation.total} correlation alerts, ` +
        `${result.correlation.missing.length} missing, ${result.correlation.extra.length} beyond the reference of which ${result.correlation.invented.length} with a value the reference never has (kcat)${result.correlation.extra.length ? `, e.g. ${result.correlation.extra.slice(0, 6).join(' ')}` : ''}`,
    );
    assert.equal(result.every, expectedEvery);
    assert.deepEqual(result.correlation.missing, []);
    if (exactlyOnce) {
      // committed output exactly once: no event alerted twice, the correlation alerts equal the reference
      assert.equal(result.repeated, 0, 'no event alerted twice');
      assert.deepEqual(result.correlation.extra, [], 'no correlation alert beyond the reference');
    }
  }).finally(async () => {
    if (killed !== undefined) await cluster.startNode(killed);
  });
}

/** The broker that coordinates the consumer group `groupId` (where its members join and commit). */
async function groupCoordinator(groupId: string): Promise<number> {
  const admin = new Admin({ clientId: 'weir-fault-observer', bootstrapBrokers: testBootstrap().split(',') });
  try {
    const [found] = await admin.findCoordinator({ keyType: FindCoordinatorKeyTypes.GROUP, keys: [groupId] });
    if (!found) throw new Error(`no coordinator found for group ${groupId}`);
    return found.nodeId;
  } finally {
    await admin.close();
  }
}

/** Kills the coordinator of the node's consumer group: its joins, commits and transactions must move. */
const coordinator: Victim = async (run) => ({
  broker: await groupCoordinator(run.groupId),
  why: `coordinator of the consumer group ${run.groupId}`,
});

describe('broker loss in the three-broker cluster', () => {
  test(
    "at_least_once: the alerts topic's leader killed mid-stream loses no record and no alert",
    { timeout: 480_000 },
    (t) =>
      brokerLoss(t, 'broker-loss', 'at_least_once', async (run, leader) => ({
        broker: leader,
        why: `leader of ${run.alertsTopic}/0`,
      })),
  );
  // The group's members must find the new coordinator and join again: their commits and joins fail until it moves.
  test(
    "at_least_once: the consumer group's coordinator killed mid-stream loses no record and no alert",
    { timeout: 480_000 },
    (t) => brokerLoss(t, 'coordinator-loss', 'at_least_once', coordinator),
  );
  // exactly_once_v2: the transactions in flight are aborted or completed by the next coordinator; a read_committed reader sees each output once
  test(
    "exactly_once_v2: the consumer group's coordinator killed mid-stream; the committed alerts equal the reference",
    { timeout: 480_000 },
    (t) => brokerLoss(t, 'coordinator-loss-eos', 'exactly_once_v2', coordinator),
  );
});
