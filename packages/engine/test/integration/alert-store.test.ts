import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { alertRecord } from '../alerts/alert-fixtures.ts';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { startTestNode, testBootstrap, useTestNode, type TestNode } from '@weir/test-helpers/test-node';
import { kcatProduce } from '@weir/test-helpers/kcat';

const run = promisify(execFile);

/** Every id of `_alert` on the topic, as kcat (librdkafka) reads it from start to end. */
async function kcatAlertIds(topic: string): Promise<Set<string>> {
  const { stdout } = await run(
    'kcat',
    ['-C', '-b', testBootstrap(), '-t', topic, '-o', 'beginning', '-e', '-q', '-f', '%s\n'],
    {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60_000,
    },
  );
  const lines = stdout.split('\n').filter((l) => l.length > 0);
  return new Set(lines.map((l) => (JSON.parse(l) as { _alert: { id: string } })._alert.id));
}

/** Every alert id the API lists, page after page. */
async function apiAlertIds(t: TestNode, token: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await t.call('GET', `/api/alerts?limit=70${cursor ? `&cursor=${cursor}` : ''}`, { token });
    assert.equal(res.status, 200);
    const page = res.body as { alerts: { id: string }[]; nextCursor: string | null };
    ids.push(...page.alerts.map((a) => a.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

/**
 * The alert store on a real node and broker (docs/alerts.md, "The alert store and triage"): alerts
 * written to the alerts topic with kcat (3 partitions, some written twice as a later update) are
 * every one in the index, counted with kcat against the API; after a restart on the same home
 * the node neither loses nor doubles any, and a new alert still arrives.
 */
describe('the alert store on a node', () => {
  let token: string;
  const settings = isolatedEngine('alert-store-node');
  const alertsTopic = `${settings['weir.topic.prefix']}_alerts`;
  const t = useTestNode(settings, async () => {
    token = await t.initAdmin();
  });

  test('every alert on the topic is in the index, once; a later record of the same alert wins; kept across a restart', async () => {
    await createTopics([alertsTopic], 3).catch(() => {});
    const now = Date.now();
    const records = Array.from({ length: 240 }, (_, n) => JSON.stringify(alertRecord({ n, time: now - n * 1000 })));
    const updates = [3, 5, 8].map((n) => JSON.stringify(alertRecord({ n, time: now - n * 1000, extra: { count: 9 } })));
    await kcatProduce(alertsTopic, [...records, ...updates]);
    const onTopic = await kcatAlertIds(alertsTopic);
    assert.equal(onTopic.size, 240);
    const listed = await waitFor('every alert in the API', async () => {
      const ids = await apiAlertIds(t, token);
      return ids.length >= onTopic.size ? ids : undefined;
    });
    assert.equal(listed.length, onTopic.size);
    assert.deepEqual(new Set(listed), onTopic);
    const one = await t.call(
      'GET',
      `/api/alerts/${(JSON.parse(updates[0]!) as { _alert: { id: string } })._alert.id}`,
      {
        token,
      },
    );
    assert.equal((one.body as { record: { count: number } }).record.count, 9);

    await t.restart();
    token = await t.login('admin', 'admin-pw').then((r) => r.access_token);
    await kcatProduce(alertsTopic, [JSON.stringify(alertRecord({ n: 1000, time: now }))]);
    const after = await waitFor('the new alert after the restart', async () => {
      const ids = await apiAlertIds(t, token);
      return ids.length > onTopic.size ? ids : undefined;
    });
    assert.equal(after.length, onTopic.size + 1);
    assert.equal(new Set(after).size, onTopic.size + 1);
  });

  test('two nodes on one broker: a triage change made on one is read on the other; a node started late fills its index', async () => {
    const other = await startTestNode(settings);
    try {
      const otherToken = await other.initAdmin();
      const total = (await kcatAlertIds(alertsTopic)).size;
      await waitFor(
        'the other node to fill its index',
        async () => (await apiAlertIds(other, otherToken)).length === total,
      );
      const [id] = await apiAlertIds(t, token);
      const patched = await t.call('PATCH', `/api/alerts/${id}`, {
        token,
        body: { status: 'closed', resolution: 'benign', assignee: 'alice', note: 'maintenance' },
      });
      assert.equal(patched.status, 200);
      const read = await waitFor('the triage on the other node', async () => {
        const res = await other.call('GET', `/api/alerts/${id}`, { token: otherToken });
        const alert = res.body as { status: string };
        return alert.status === 'closed' ? alert : undefined;
      });
      assert.deepEqual(read, patched.body);
      const closed = await other.call('GET', '/api/alerts?status=closed', { token: otherToken });
      assert.deepEqual(
        (closed.body as { alerts: { id: string }[] }).alerts.map((a) => a.id),
        [id],
      );
    } finally {
      await other.stop();
    }
    const late = await startTestNode(settings);
    try {
      const lateToken = await late.initAdmin();
      const total = (await kcatAlertIds(alertsTopic)).size;
      const ids = await waitFor('the late node to fill its index', async () => {
        const listed = await apiAlertIds(late, lateToken);
        return listed.length === total ? listed : undefined;
      });
      assert.deepEqual(new Set(ids), await kcatAlertIds(alertsTopic));
      const closed = await waitFor('the triage on the late node', async () => {
        const res = await late.call('GET', '/api/alerts?status=closed', { token: lateToken });
        const alerts = (res.body as { alerts: { updatedBy: string; notes: { text: string }[] }[] }).alerts;
        return alerts.length === 1 ? alerts : undefined;
      });
      assert.deepEqual([closed[0]!.updatedBy, closed[0]!.notes.map((n) => n.text)], ['admin', ['maintenance']]);
    } finally {
      await late.stop();
    }
  });
});
