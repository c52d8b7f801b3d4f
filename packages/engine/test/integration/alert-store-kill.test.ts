import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import { alertRecord } from '../alerts/alert-fixtures.ts';
import { NodeProcess, initAdmin } from '../helpers/node-process.ts';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { kcatProduce } from '@weir/test-helpers/kcat';
import { testBootstrap } from '@weir/test-helpers/test-node';

const run = promisify(execFile);

async function kcatCount(topic: string): Promise<number> {
  const { stdout } = await run(
    'kcat',
    ['-C', '-b', testBootstrap(), '-t', topic, '-o', 'beginning', '-e', '-q', '-f', '%o\n'],
    {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60_000,
    },
  );
  return stdout.split('\n').filter((l) => l.length > 0).length;
}

/** The alerts the node's index holds: the sum of its groups by rule (one request). */
async function indexed(node: NodeProcess, token: string): Promise<number> {
  const res = await node.call('GET', '/api/alerts/groups?by=rule', { token });
  if (res.status !== 200) return -1;
  return (res.body as { groups: { count: number }[] }).groups.reduce((n, g) => n + g.count, 0);
}

const node = new NodeProcess();
after(() => node.stop());

/**
 * A node killed with SIGKILL while it indexes the alerts topic, then started again on the same
 * home: its index holds every alert of the topic, counted with kcat against the API, none twice
 * (the positions are in the same SQLite transaction as the rows).
 */
test('the alert index after a SIGKILL during ingest: every alert, none lost, none doubled', async (t) => {
  const settings = isolatedEngine('alert-kill');
  const topic = `${settings['weir.topic.prefix']}_alerts`;
  await createTopics([topic], 3);
  const total = 60_000;
  const now = Date.now();
  const pad = 'x'.repeat(300);
  await kcatProduce(
    topic,
    Array.from({ length: total }, (_, n) => JSON.stringify(alertRecord({ n, time: now - n, extra: { pad } }))),
  );
  assert.equal(await kcatCount(topic), total);

  await node.configure({ ...settings, 'weir.engine.autostart': 'false' });
  await node.start();
  const token = await initAdmin(node);
  const atKill = await waitFor(
    'the index to start filling',
    async () => {
      const n = await indexed(node, token);
      return n > 0 ? n : undefined;
    },
    60_000,
  );
  await node.kill();
  t.diagnostic(`killed with ${atKill} of ${total} alerts indexed`);

  await node.start();
  const count = await waitFor(
    'every alert in the index after the restart',
    async () => {
      const n = await indexed(node, token);
      return n >= total ? n : undefined;
    },
    120_000,
  );
  assert.equal(count, total, `indexed ${atKill} of ${total} when killed`);
  // every id once, page by page
  const ids = new Set<string>();
  let cursor: string | null = null;
  let listed = 0;
  do {
    const res = await node.call('GET', `/api/alerts?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, { token });
    const page = res.body as { alerts: { id: string }[]; nextCursor: string | null };
    for (const a of page.alerts) ids.add(a.id);
    listed += page.alerts.length;
    cursor = page.nextCursor;
  } while (cursor);
  assert.deepEqual([listed, ids.size], [total, total]);
});
