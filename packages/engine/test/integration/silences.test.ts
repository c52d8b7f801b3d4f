import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storeSettings } from '../helpers/store-modes.ts';
import { startTestNode } from '@weir/test-helpers/test-node';
import { uniqueTopicPrefix } from '@weir/test-helpers/unique';

const silence = {
  matchers: [{ field: '_rule.id', op: '=', value: 'failed-login' }],
  endsAt: Date.now() + 24 * 3_600_000,
  comment: 'shared',
};

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() - start > ms) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('local store: silences survive a restart of the node, the expired one too', async () => {
  const t = await startTestNode(storeSettings('local'));
  try {
    const admin = await t.initAdmin();
    const kept = (await t.call('POST', '/api/silences', { token: admin, body: silence })).body as { id: string };
    const ended = (await t.call('POST', '/api/silences', { token: admin, body: silence })).body as { id: string };
    const expired = await t.call('POST', `/api/silences/${ended.id}/expire`, { token: admin });
    const before = (await t.call('GET', '/api/silences', { token: admin })).body;
    assert.deepEqual(before, [{ ...kept, state: 'active' }, expired.body]);
    await t.restart();
    const token = (await t.login('admin', 'admin-pw')).access_token;
    const after = await t.call('GET', '/api/silences', { token });
    assert.deepEqual([after.status, after.body], [200, before]);
  } finally {
    await t.stop();
  }
});

test('kafka store: a silence created and expired on one node is read on another', async () => {
  const shared = storeSettings('kafka', uniqueTopicPrefix('silences'));
  const a = await startTestNode(shared);
  const b = await startTestNode(shared);
  try {
    const admin = await a.initAdmin();
    const created = await a.call('POST', '/api/silences', { token: admin, body: silence });
    assert.equal(created.status, 201);
    const id = (created.body as { id: string }).id;
    const onB = await until(
      () => b.call('GET', `/api/silences/${id}`, { token: admin }),
      (r) => r.status === 200,
      5000,
    );
    assert.deepEqual([onB.status, onB.body], [200, created.body]);
    const expired = await b.call('POST', `/api/silences/${id}/expire`, { token: admin });
    assert.equal(expired.status, 200);
    const backOnA = await until(
      () => a.call('GET', '/api/silences?state=expired', { token: admin }),
      (r) => (r.body as unknown[]).length === 1,
      5000,
    );
    assert.deepEqual([backOnA.status, backOnA.body], [200, [expired.body]]);
  } finally {
    await a.stop();
    await b.stop();
  }
});
