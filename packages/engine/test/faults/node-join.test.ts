import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  alertsByUser,
  compareAlerts,
  configureCorrelation,
  expectedAlerts,
  produceEvents,
  streamHalf,
  threshold,
  users,
} from '../helpers/correlation-stream.ts';
import { waitFor } from '@weir/test-helpers/engine';
import { kcatValues } from '@weir/test-helpers/kcat';
import { faultRun, waitForAssignment, waitForBoth, type Guarantee } from '../helpers/node-pair.ts';
import { initAdmin, login } from '../helpers/node-process.ts';

/**
 * Issue 12, items 4 and 6: one node (2 stream threads) runs the deterministic correlation stream
 * (4 input partitions, null keys, event times in 2023); a second node joins halfway, while the second
 * half is being written in slices, so partitions move while records flow, and a quarter of the slices
 * wait for the join, so moved partitions always get records after it. The alerts must equal the
 * single-worker reference per user (exactly_once_v2, read_committed); under at_least_once none may be
 * missing and, since a rebalance is normal operation, none may be repeated either.
 */
async function joinHalfway(guarantee: Guarantee, diagnostic: (line: string) => void): Promise<void> {
  const label = `join-${guarantee === 'at_least_once' ? 'alos' : 'eos'}`;
  await faultRun({ label, guarantee, topic: 'join', outputPartitions: 1 }, async (run) => {
    const { groupId, alertsTopic, input, output } = run;
    const committedOnly = guarantee === 'exactly_once_v2';
    const a = await run.startNode();
    const token = await initAdmin(a);
    await configureCorrelation(a, token, input, output);
    await a.waitRunning(token);
    await waitForAssignment(
      groupId,
      input,
      4,
      { [a.uuid]: (n) => n === 4 },
      120_000,
      'the first node to hold every input partition',
    );

    await produceEvents(input, streamHalf(0));
    await waitFor(
      'the alerts of the first half',
      async () => compareAlerts(alertsByUser(await kcatValues(alertsTopic, committedOnly))).total >= users,
      120_000,
    );

    // The second node starts; once its API answers (its workers are about to join the group), the
    // second half goes out in 20 slices, 500 ms apart. The last 5 wait until both nodes hold input
    // partitions, so the rebalance happens while records flow and the moved partitions get records
    // after it (their state restored from the changelogs), however slowly the second node joins.
    const second = streamHalf(1);
    const slices = 20;
    const afterJoin = 5;
    const slice = (i: number) => second.slice((i * second.length) / slices, ((i + 1) * second.length) / slices);
    const joinStarted = Date.now();
    const b = await run.startNode();
    let joined = false;
    let slicesBeforeJoin = 0;
    const writing = (async () => {
      for (let i = 0; i < slices - afterJoin && !joined; i++) {
        await produceEvents(input, slice(i));
        slicesBeforeJoin = i + 1;
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    await b.waitRunning(await login(b));
    await waitForBoth(run, a, b);
    joined = true;
    const rebalanced = Date.now() - joinStarted;
    await writing;
    for (let i = slicesBeforeJoin; i < slices; i++) {
      await produceEvents(input, slice(i));
      await new Promise((r) => setTimeout(r, 500));
    }
    diagnostic(
      `${guarantee}: a second node joined halfway: both nodes held input partitions ${rebalanced} ms after its process started, ` +
        `after ${slicesBeforeJoin} of the second half's ${slices} slices; the other ${slices - slicesBeforeJoin} went out after the join`,
    );

    await waitFor(
      'every expected alert',
      async () => compareAlerts(alertsByUser(await kcatValues(alertsTopic, committedOnly))).missing.length === 0,
      120_000,
    ).catch(async (err: Error) => {
      const c = compareAlerts(alertsByUser(await kcatValues(alertsTopic, committedOnly)));
      throw new Error(
        `${err.message}: ${c.missing.length} missing (${c.missing.slice(0, 10).join(', ')}…), ${c.extra.length} extra\nlogs:\n${a.output}\n${b.output}`,
      );
    });
    await new Promise((r) => setTimeout(r, 3000)); // late duplicates would arrive now
    const alerts = alertsByUser(await kcatValues(alertsTopic, committedOnly));
    const { missing, extra, invented, total } = compareAlerts(alerts);
    diagnostic(
      `${guarantee}: ${total} alerts for ${users * (40 - threshold + 1)} expected, ${missing.length} missing, ${extra.length} beyond the reference of which ${invented.length} with a value the reference never has (kcat)${extra.length ? `, e.g. ${extra.slice(0, 6).join(' ')}` : ''}`,
    );
    assert.deepEqual(missing, [], 'no alert is missing');
    assert.deepEqual(extra, [], 'a node joining repeats no alert');
    if (guarantee === 'exactly_once_v2')
      assert.deepEqual(alerts, expectedAlerts(), 'per user, the committed alerts equal the single-worker reference');
  });
}

describe('a second node joins halfway through the correlation stream (rebalance)', { concurrency: false }, () => {
  test('exactly_once_v2: per user, the committed alerts equal the reference', { timeout: 420_000 }, async (t) => {
    await joinHalfway('exactly_once_v2', (line) => t.diagnostic(line));
  });

  test('at_least_once: no alert is missing and none is repeated', { timeout: 420_000 }, async (t) => {
    await joinHalfway('at_least_once', (line) => t.diagnostic(line));
  });
});
