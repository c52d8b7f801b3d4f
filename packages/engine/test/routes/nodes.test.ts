import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, inProcessRest, useInProcessNode } from '../helpers/in-process-node.ts';

const t = useInProcessNode();
const other = '3f1c0a52-5a57-4a43-9a8e-8a4e9b8f0c11';

function self() {
  return {
    uuid: t.node.context.uuid,
    host: 'in-process',
    rest: inProcessRest,
    group: 'default',
    state: 'NOT_RUNNING',
    lastSeen: '<time>',
    version: '0.1.0',
    alive: true,
  };
}
const normalised = (n: unknown) => ({ ...(n as object), lastSeen: '<time>' });

test('node routes refuse callers without a token, and user tokens on DELETE', async () => {
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/nodes', { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'GET', `/api/nodes/${other}`, { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'DELETE', `/api/nodes/${other}`, { adminOnly: true });
});

test('GET /api/nodes lists the registered node; GET /api/nodes/:id answers it', async () => {
  const list = await t.node.call('GET', '/api/nodes', { token: t.tokens.user });
  assert.equal(list.status, 200);
  assert.deepEqual((list.body as unknown[]).map(normalised), [self()]);
  assert.ok(!Number.isNaN(Date.parse((list.body as { lastSeen: string }[])[0]!.lastSeen)));

  const one = await t.node.call('GET', `/api/nodes/${t.node.context.uuid}`, { token: t.tokens.user });
  assert.equal(one.status, 200);
  assert.deepEqual(normalised(one.body), self());
});

test('an unknown node: 404 on GET; DELETE of an id not this node: 400 with the spec text', async () => {
  const missing = {
    status: 'NOT_FOUND',
    message: 'Resource not found',
    debugMessage: 'Requested node does not exist',
  };
  const get = await t.node.call('GET', `/api/nodes/${other}`, { token: t.tokens.user });
  assert.deepEqual([get.status, get.body], [404, missing]);
  const del = await t.node.call('DELETE', `/api/nodes/${other}`, { token: t.tokens.admin });
  assert.deepEqual(
    [del.status, del.body],
    [
      400,
      {
        status: 'BAD_REQUEST',
        message: 'Resource validation failed',
        debugMessage: 'Unable to remove node. In order to remove properly the node must match the provided UUID',
      },
    ],
  );
});

test("DELETE of the node's own id deregisters it (204) and GET /api/nodes no longer lists it", async () => {
  const del = await t.node.call('DELETE', `/api/nodes/${t.node.context.uuid}`, { token: t.tokens.admin });
  assert.deepEqual([del.status, del.text], [204, '']);
  const list = await t.node.call('GET', '/api/nodes', { token: t.tokens.user });
  assert.deepEqual([list.status, list.body], [200, []]);
});
