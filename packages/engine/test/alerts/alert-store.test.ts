import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { AlertStore } from '../../src/alerts/alert-store.ts';
import { AuditingStore } from '../../src/audit/auditing-store.ts';
import { loadSettings, nodeUuid } from '../../src/config/settings.ts';
import { kafkaConnection } from '../../src/kafka/client-options.ts';
import { TopicProducer } from '../../src/kafka/topic-producer.ts';
import { ensureWeirTopics } from '../../src/kafka/weir-topic-setup.ts';
import { openStore } from '../../src/store/open-store.ts';
import { alertId, alertRecord } from './alert-fixtures.ts';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { produce } from '@weir/test-helpers/kafka';
import { testBootstrap } from '@weir/test-helpers/test-node';

const engine = isolatedEngine('alert-store');
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** One node's alert store on the test broker (its own home, config store and producer), started. */
async function storeOfNode(): Promise<AlertStore> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'weir-alert-store-'));
  const settings = loadSettings(undefined, {}).with({
    ...engine,
    'weir.home': home,
    'weir.config.store': 'local',
    'bootstrap.servers': testBootstrap(),
  });
  const config = new AuditingStore(await openStore(settings, nodeUuid(settings), () => {}));
  const producer = new TopicProducer(kafkaConnection(settings, 'weir-test-alert-store'));
  const store = new AlertStore(settings, nodeUuid(settings), producer, config, { warn: () => {} });
  store.start();
  cleanups.push(async () => {
    await store.close();
    await producer.close();
    await config.close();
    rmSync(home, { recursive: true, force: true });
  });
  return store;
}

test('AlertStore: two nodes index the same alerts; a triage change on one is read on the other; a late node fills itself', async () => {
  const settings = loadSettings(undefined, {}).with({ ...engine, 'bootstrap.servers': testBootstrap() });
  await ensureWeirTopics(settings, 'weir-test-alert-store-admin', false);
  const alertsTopic = `${engine['weir.topic.prefix']}_alerts`;
  await produce(
    alertsTopic,
    Array.from({ length: 50 }, (_, n) => JSON.stringify(alertRecord({ n }))),
    (i) => `k${i}`,
  );
  const [a, b] = [await storeOfNode(), await storeOfNode()];
  await waitFor('50 alerts on both', async () => a.index.count() === 50 && b.index.count() === 50);

  await a.triage(alertId(7), { status: 'closed', resolution: 'true_positive', note: 'real' }, 'ann');
  const seen = await waitFor('the triage on the other node', async () => {
    const alert = b.get(alertId(7));
    return alert.status === 'closed' ? alert : undefined;
  });
  assert.deepEqual(
    [seen.resolution, seen.updatedBy, seen.notes.map((n) => [n.user, n.text])],
    ['true_positive', 'ann', [['ann', 'real']]],
  );

  const late = await storeOfNode();
  await waitFor('50 alerts and the triage on the late node', async () => {
    return late.index.count() === 50 && late.get(alertId(7)).status === 'closed';
  });
  assert.equal(late.get(alertId(7)).resolution, 'true_positive');
});
