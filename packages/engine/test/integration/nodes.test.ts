import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import type { NodeView as NodeRecord } from '../../src/nodes/node-registry.ts';
import { storeModes, storeSettings } from '../helpers/store-modes.ts';
import { type TestNode, startTestNode, useTestNode } from '@weir/test-helpers/test-node';
import { uniqueTopicPrefix } from '@weir/test-helpers/unique';

const notFound = { status: 'NOT_FOUND', message: 'Resource not found', debugMessage: 'Requested node does not exist' };
const mismatch = {
  status: 'BAD_REQUEST',
  message: 'Resource validation failed',
  debugMessage: 'Unable to remove node. In order to remove properly the node must match the provided UUID',
};

async function eventually<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  ms: number,
): Promise<{ value: T; took: number }> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (ok(value)) return { value, took: Date.now() - start };
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const mode of storeModes) {
  describe(`node registry (${mode} store)`, () => {
    let admin: string;
    let user: string;
    const t = useTestNode(
      {
        ...storeSettings(mode),
        'weir.node.heartbeat-seconds': '1',
        'weir.group': 'edge',
        'weir.engine.autostart': 'false',
      },
      async () => {
        admin = await t.initAdmin();
        user = await t.createUser(admin, 'uma');
      },
    );

    test('the node registers itself at start and heartbeats', async () => {
      const uuid = t.node.context.uuid;
      const all = await t.call('GET', '/api/nodes', { token: user });
      assert.equal(all.status, 200);
      const nodes = all.body as NodeRecord[];
      assert.equal(nodes.length, 1);
      const self = nodes[0]!;
      assert.deepEqual(
        { ...self, lastSeen: undefined },
        {
          uuid,
          host: os.hostname(),
          rest: `https://127.0.0.1:${new URL(t.url).port}`,
          group: 'edge',
          state: 'NOT_RUNNING',
          lastSeen: undefined,
          version: '0.1.0',
          alive: true,
        },
      );
      assert.ok(Math.abs(Date.parse(self.lastSeen) - Date.now()) < 5000);
      const one = await t.call('GET', `/api/nodes/${uuid}`, { token: user });
      assert.deepEqual(one.body, self);
      await eventually(
        () => t.call('GET', `/api/nodes/${uuid}`, { token: user }),
        (r) => (r.body as NodeRecord).lastSeen > self.lastSeen,
        3000,
      );
    });

    test('a missing node is 404; deleting another (or an unknown) node is 400; a user may not delete', async () => {
      const missing = await t.call('GET', `/api/nodes/${randomUUID()}`, { token: admin });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, notFound);
      // spec: any id other than the receiving node's uuid is 400 with the spec's message, known node or not
      const deleteMissing = await t.call('DELETE', `/api/nodes/${randomUUID()}`, { token: admin });
      assert.equal(deleteMissing.status, 400);
      assert.deepEqual(deleteMissing.body, mismatch);

      const other = randomUUID();
      await t.node.context.store.put('nodes', other, {
        uuid: other,
        host: 'elsewhere',
        rest: 'https://elsewhere:8999',
        group: 'default',
        state: 'RUNNING',
        lastSeen: new Date().toISOString(),
        version: '0.1.0',
      });
      const refused = await t.call('DELETE', `/api/nodes/${other}`, { token: admin });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body, mismatch);
      assert.equal((await t.call('GET', `/api/nodes/${other}`, { token: admin })).status, 200, 'still registered');
      await t.node.context.store.delete('nodes', other);
      assert.equal((await t.call('DELETE', `/api/nodes/${t.node.context.uuid}`, { token: user })).status, 403);
    });

    test('a node whose lastSeen is older than weir.node.dead-after-seconds is dead; any admin may remove a dead node, never a live one', async () => {
      const dead = randomUUID();
      const live = randomUUID();
      const record = (uuid: string, agoMs: number) => ({
        uuid,
        host: 'elsewhere',
        rest: 'https://elsewhere:8999',
        group: 'edge',
        state: 'RUNNING',
        lastSeen: new Date(Date.now() - agoMs).toISOString(),
        version: '0.1.0',
      });
      await t.node.context.store.put('nodes', dead, record(dead, 31_000));
      await t.node.context.store.put('nodes', live, record(live, 25_000));
      try {
        const nodes = (await t.call('GET', '/api/nodes', { token: user })).body as NodeRecord[];
        const alive = Object.fromEntries(nodes.map((n) => [n.uuid, n.alive]));
        assert.deepEqual(alive, { [t.node.context.uuid]: true, [dead]: false, [live]: true });
        assert.deepEqual((await t.call('GET', `/api/nodes/${dead}`, { token: user })).body, {
          ...record(dead, 0),
          lastSeen: nodes.find((n) => n.uuid === dead)!.lastSeen,
          alive: false,
        });

        const refused = await t.call('DELETE', `/api/nodes/${live}`, { token: admin });
        assert.equal(refused.status, 400);
        assert.deepEqual(refused.body, mismatch);
        assert.equal(
          (await t.call('DELETE', `/api/nodes/${dead}`, { token: user })).status,
          403,
          'a user may not remove a dead node',
        );
        const removed = await t.call('DELETE', `/api/nodes/${dead}`, { token: admin });
        assert.equal(removed.status, 204);
        assert.equal(removed.text, '');
        assert.equal((await t.call('GET', `/api/nodes/${dead}`, { token: admin })).status, 404);
        assert.deepEqual(
          ((await t.call('GET', '/api/nodes', { token: admin })).body as NodeRecord[]).map((n) => n.uuid).sort(),
          [t.node.context.uuid, live].sort(),
        );
      } finally {
        await t.node.context.store.delete('nodes', live);
      }
    });

    test('deleting its own uuid deregisters the node until it restarts', async () => {
      const uuid = t.node.context.uuid;
      const res = await t.call('DELETE', `/api/nodes/${uuid}`, { token: admin });
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      await new Promise((r) => setTimeout(r, 1500));
      assert.deepEqual((await t.call('GET', '/api/nodes', { token: admin })).body, [], 'the heartbeat stopped too');
      await t.restart();
      admin = (await t.login('admin', 'admin-pw')).access_token;
      user = (await t.login('uma', 'uma-pw')).access_token;
      assert.deepEqual(
        ((await t.call('GET', '/api/nodes', { token: admin })).body as NodeRecord[]).map((n) => n.uuid),
        [uuid],
      );
    });
  });
}

describe('two nodes on one broker (kafka store)', () => {
  let a: TestNode;
  let b: TestNode;
  let bStopped = false;
  before(async () => {
    const shared = {
      ...storeSettings('kafka', uniqueTopicPrefix('pair')),
      'weir.node.heartbeat-seconds': '1',
      'weir.node.dead-after-seconds': '2',
    };
    a = await startTestNode(shared);
    b = await startTestNode(shared);
  });
  after(async () => {
    await a.stop();
    if (!bStopped) await b.stop();
  });

  test('both appear in GET /api/nodes of each; users, tokens and writes are shared within 1 s', async () => {
    const tokenA = await a.initAdmin();
    const { value: tokenB } = await eventually(
      async () => {
        const res = await b.call('POST', '/api/login', { body: { username: 'admin', password: 'admin-pw' } });
        return (res.body as { access_token?: string } | undefined)?.access_token;
      },
      (v) => v !== undefined,
      1000,
    );
    assert.ok(tokenB);
    assert.equal(
      (await b.call('GET', '/api/users', { token: tokenA })).status,
      200,
      'a token of one node is accepted by the other',
    );

    const uuids = [a.node.context.uuid, b.node.context.uuid].sort();
    for (const [node, token] of [
      [a, tokenA],
      [b, tokenB],
    ] as const) {
      const nodes = (await node.call('GET', '/api/nodes', { token })).body as NodeRecord[];
      assert.deepEqual(nodes.map((n) => n.uuid).sort(), uuids);
    }

    const task = { id: 1, name: 'shared', function: 'PARSE_KV', definition: {} };
    assert.equal((await a.call('POST', '/api/tasks', { token: tokenA, body: task })).status, 201);
    const seen = await eventually(
      () => b.call('GET', '/api/tasks/1', { token: tokenB }),
      (r) => r.status === 200,
      1000,
    );
    assert.deepEqual(seen.value.body, task);

    const rule = { id: 'r', name: 'from b', pdl: 'a = 1', enabled: false };
    assert.equal((await b.call('POST', '/api/rules', { token: tokenB, body: rule })).status, 201);
    await eventually(
      () => a.call('GET', '/api/rules/r', { token: tokenA }),
      (r) => r.status === 200,
      1000,
    );
    assert.equal((await a.call('DELETE', '/api/rules/r', { token: tokenA })).status, 204);
    await eventually(
      () => b.call('GET', '/api/rules/r', { token: tokenB }),
      (r) => r.status === 404,
      1000,
    );

    const refused = await a.call('DELETE', `/api/nodes/${b.node.context.uuid}`, { token: tokenA });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, mismatch);
  });

  test('a stopped node turns dead within weir.node.dead-after-seconds on the other node, which may then remove it', async () => {
    const tokenA = (await a.login('admin', 'admin-pw')).access_token;
    const uuidB = b.node.context.uuid;
    const view = async () =>
      ((await a.call('GET', '/api/nodes', { token: tokenA })).body as NodeRecord[]).find((n) => n.uuid === uuidB);
    assert.equal((await view())?.alive, true);
    await b.stop();
    bStopped = true;
    const stoppedAt = Date.now();
    const { value: dead } = await eventually(view, (n) => n?.alive === false, 10_000);
    assert.ok(
      Date.now() - Date.parse(dead!.lastSeen) > 2000,
      `dead only after 2 s without a heartbeat: ${dead!.lastSeen}`,
    );
    assert.ok(Date.now() - stoppedAt < 10_000);
    const removed = await a.call('DELETE', `/api/nodes/${uuidB}`, { token: tokenA });
    assert.equal(removed.status, 204, removed.text);
    assert.deepEqual(
      ((await a.call('GET', '/api/nodes', { token: tokenA })).body as NodeRecord[]).map((n) => [n.uuid, n.alive]),
      [[a.node.context.uuid, true]],
    );
  });
});

test('a dead-after threshold below two heartbeats is refused at start, naming both settings', async () => {
  await assert.rejects(
    startTestNode({ 'weir.node.heartbeat-seconds': '10', 'weir.node.dead-after-seconds': '15' }),
    /^SettingsError: weir\.node\.dead-after-seconds \(15\) must be at least twice weir\.node\.heartbeat-seconds \(10\)/,
  );
});
