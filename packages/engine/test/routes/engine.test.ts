import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';

const t = useInProcessNode();

test('engine routes refuse callers without a token, and user tokens on start and stop', async () => {
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/engine/state', { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'POST', '/api/engine/stop', { adminOnly: true });
  await assertRefusals(t.node, t.tokens.user, 'POST', '/api/engine/start', { adminOnly: true });
});

test('state, start, a refused second start, stop; start and stop are audited', async () => {
  const { admin, user } = t.tokens;
  const state = await t.node.call('GET', '/api/engine/state', { token: user });
  assert.equal(state.status, 200);
  assert.deepEqual(state.body, { states: ['NOT_RUNNING'] });

  const started = await t.node.call('POST', '/api/engine/start', { token: admin });
  assert.equal(started.status, 200);
  assert.deepEqual(started.body, { states: ['REBALANCING'] });

  const again = await t.node.call('POST', '/api/engine/start', { token: admin });
  assert.equal(again.status, 400);
  assert.match(
    (again.body as { debugMessage: string }).debugMessage,
    /^Unable to start engine, please stop it properly\. Current state is (REBALANCING|RUNNING)$/,
  );
  assert.deepEqual(
    { ...(again.body as object), debugMessage: '…' },
    { status: 'BAD_REQUEST', message: 'Resource validation failed', debugMessage: '…' },
  );

  const stopped = await t.node.call('POST', '/api/engine/stop', { token: admin });
  assert.equal(stopped.status, 200);
  assert.deepEqual(stopped.body, { states: ['NOT_RUNNING'] });
  const stoppedAgain = await t.node.call('POST', '/api/engine/stop', { token: admin });
  assert.deepEqual([stoppedAgain.status, stoppedAgain.body], [200, { states: ['NOT_RUNNING'] }]);

  const audit = await t.node.call('GET', '/api/audit?kind=engine', { token: admin });
  const entries = (audit.body as { entries: { action: string; id: string; user: string }[] }).entries;
  assert.deepEqual(
    entries.map((e) => [e.action, e.id, e.user]),
    [
      ['stop', t.node.context.uuid, 'admin'],
      ['stop', t.node.context.uuid, 'admin'],
      ['start', t.node.context.uuid, 'admin'],
    ],
  );
});
