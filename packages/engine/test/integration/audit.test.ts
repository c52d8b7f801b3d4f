import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Admin } from '@platformatic/kafka';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { storeSettings } from '../helpers/store-modes.ts';
import { startTestNode, testBootstrap, type TestNode } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

interface Entry {
  seq: number;
  time: string;
  user: string | null;
  address: string | null;
  kind: string;
  action: string;
  id: string | null;
  before?: unknown;
  after?: unknown;
  detail?: string;
}
interface Page {
  total: number;
  offset: number;
  limit: number;
  entries: Entry[];
}

const rule = { id: 'r1', name: 'first', description: '', pdl: 'a=1', annotations: [], enabled: true };

describe('audit trail (local store)', () => {
  let t: TestNode;
  let admin: string;
  const audit = async (query = '') => {
    const res = await t.call('GET', `/api/audit${query}`, { token: admin });
    assert.equal(res.status, 200, res.text);
    return res.body as Page;
  };
  before(async () => {
    t = await startTestNode(isolatedEngine('audit'));
    admin = await t.initAdmin();
  });
  after(() => t.stop());

  test('logins, user and rule changes are recorded with who, when, where, before and after', async () => {
    const started = Date.now();
    assert.equal(
      (await t.call('POST', '/api/login', { body: { username: 'admin', password: 'wrong-pw' } })).status,
      401,
    );
    assert.equal(
      (
        await t.call('POST', '/api/users', {
          token: admin,
          body: { username: 'una', password: 'una-pw-long', name: 'Una' },
        })
      ).status,
      201,
    );
    assert.equal((await t.call('POST', '/api/rules', { token: admin, body: rule })).status, 201);
    assert.equal(
      (await t.call('PUT', '/api/rules/r1', { token: admin, body: { ...rule, name: 'second' } })).status,
      200,
    );
    assert.equal((await t.call('DELETE', '/api/rules/r1', { token: admin })).status, 204);

    const all = await audit();
    const newest = all.entries.slice(0, 5).reverse();
    assert.deepEqual(
      newest.map((e) => [e.user, e.kind, e.action, e.id]),
      [
        [null, 'login', 'failure', 'admin'],
        ['admin', 'user', 'create', 'una'],
        ['admin', 'rule', 'create', 'r1'],
        ['admin', 'rule', 'update', 'r1'],
        ['admin', 'rule', 'delete', 'r1'],
      ],
    );
    for (const e of newest) {
      assert.equal(e.address, '127.0.0.1');
      assert.ok(Date.parse(e.time) >= started - 1000 && Date.parse(e.time) <= Date.now(), e.time);
    }
    const [, userCreate, create, update, del] = newest as [Entry, Entry, Entry, Entry, Entry];
    assert.deepEqual(
      userCreate.after,
      { username: 'una', name: 'Una', email: '', roles: [{ id: 2, name: 'user' }] },
      'no password hash, no session key',
    );
    assert.equal(create.before, null);
    assert.deepEqual(create.after, rule);
    assert.deepEqual(update.before, rule);
    assert.deepEqual(update.after, { ...rule, name: 'second' });
    assert.deepEqual(del.before, { ...rule, name: 'second' });
    assert.equal(del.after, null);
    assert.ok(
      all.entries.some((e) => e.kind === 'login' && e.action === 'success' && e.user === 'admin'),
      'the login of the admin',
    );
    assert.ok(
      all.entries.some((e) => e.kind === 'user' && e.action === 'create' && e.id === 'admin' && e.user === null),
      'init',
    );
  });

  test('password changes, engine stop/start, topics, logout and node removal are recorded', async () => {
    assert.equal(
      (await t.call('PUT', '/api/users/una', { token: admin, body: { password: 'una-new-pw-long' } })).status,
      200,
    );
    assert.equal((await t.call('POST', '/api/engine/stop', { token: admin })).status, 200);
    assert.equal((await t.call('POST', '/api/engine/start', { token: admin })).status, 200);
    // found by the fuzz suite: a start refused because the engine runs was recorded as a start
    const engineEntries = (await audit('?kind=engine')).total;
    assert.equal((await t.call('POST', '/api/engine/start', { token: admin })).status, 400);
    assert.equal((await audit('?kind=engine')).total, engineEntries, 'a refused start is not recorded');
    const topic = uniqueTopic('audited');
    assert.equal(
      (
        await t.call('POST', '/api/topics', {
          token: admin,
          body: { name: topic, numberOfPartitions: 1, replicationFactor: 1 },
        })
      ).status,
      201,
    );
    assert.equal((await t.call('DELETE', `/api/topics/${topic}`, { token: admin })).status, 204);
    const una = await t.login('una', 'una-new-pw-long');
    assert.equal((await t.call('POST', '/api/logout', { token: una.access_token })).status, 204);
    const page = await audit();
    const has = (user: string | null, kind: string, action: string, id: string | null) =>
      page.entries.find((e) => e.user === user && e.kind === kind && e.action === action && e.id === id);
    assert.equal(has('admin', 'user', 'update', 'una')?.detail, 'password changed');
    assert.ok(has('admin', 'engine', 'stop', t.node.context.uuid));
    assert.ok(has('admin', 'engine', 'start', t.node.context.uuid));
    assert.deepEqual((has('admin', 'topic', 'create', topic)?.after as { name: string }).name, topic);
    assert.ok(has('admin', 'topic', 'delete', topic));
    assert.ok(has('una', 'session', 'logout', 'una'));

    assert.equal((await t.call('POST', '/api/engine/stop', { token: admin })).status, 200);
    assert.equal((await t.call('DELETE', `/api/nodes/${t.node.context.uuid}`, { token: admin })).status, 204);
    const removed = (await audit('?kind=node')).entries[0]!;
    assert.deepEqual([removed.user, removed.action, removed.id], ['admin', 'delete', t.node.context.uuid]);
    assert.equal((removed.before as { uuid: string }).uuid, t.node.context.uuid);
  });

  test('filters by user, kind, id and time; pages newest first; admin only; bad filters are 400', async () => {
    const byKind = await audit('?kind=rule');
    assert.deepEqual(
      byKind.entries.map((e) => e.action),
      ['delete', 'update', 'create'],
    );
    assert.equal(byKind.total, 3);
    assert.deepEqual(
      (await audit('?kind=rule&id=r1&user=admin&limit=1')).entries.map((e) => e.action),
      ['delete'],
    );
    const second = await audit('?kind=rule&limit=1&offset=1');
    assert.deepEqual(
      [second.total, second.offset, second.limit, second.entries.map((e) => e.action)],
      [3, 1, 1, ['update']],
    );
    assert.equal((await audit('?user=nobody')).total, 0);
    const update = byKind.entries[1]!;
    const exact = await audit(`?kind=rule&from=${encodeURIComponent(update.time)}&to=${Date.parse(update.time)}`);
    assert.ok(exact.entries.some((e) => e.seq === update.seq));
    assert.ok(exact.entries.every((e) => e.time === update.time));
    assert.equal((await audit('?from=2999-01-01T00:00:00Z')).total, 0);

    const bad = await t.call('GET', '/api/audit?from=yesterday', { token: admin });
    assert.equal(bad.status, 400);
    assert.match((bad.body as { debugMessage: string }).debugMessage, /query\.from must be an ISO 8601 date-time/);
    assert.equal((await t.call('GET', '/api/audit?limit=5000', { token: admin })).status, 400);
    assert.equal((await t.call('GET', '/api/audit?color=red', { token: admin })).status, 400);
    const user = (await t.login('una', 'una-new-pw-long')).access_token;
    const refused = await t.call('GET', '/api/audit', { token: user });
    assert.equal(refused.status, 403);
  });

  test('a change whose audit entry cannot be written is not stored (503, nothing changed)', async () => {
    const db = new DatabaseSync(path.join(t.home, 'var', 'config', 'weir.db'));
    try {
      db.exec('ALTER TABLE audit RENAME TO audit_away');
      const res = await t.call('POST', '/api/rules', { token: admin, body: { ...rule, id: 'lost' } });
      assert.equal(res.status, 503);
      assert.match(
        (res.body as { debugMessage: string }).debugMessage,
        /^Nothing was changed: the change and its audit entry could not be stored together/,
      );
      db.exec('ALTER TABLE audit_away RENAME TO audit');
    } finally {
      db.close();
    }
    assert.equal((await t.call('GET', '/api/rules/lost', { token: admin })).status, 404);
    assert.equal((await t.call('POST', '/api/rules', { token: admin, body: { ...rule, id: 'kept' } })).status, 201);
    assert.equal((await audit('?id=kept')).total, 1);
  });
});

test('audit trail (kafka store): one time-retained topic shared by the nodes; no change without its entry', async () => {
  const shared = storeSettings('kafka');
  const prefix = shared['weir.topic.prefix']!;
  const a = await startTestNode({ ...shared, 'weir.engine.autostart': 'false' });
  const b = await startTestNode({ ...shared, 'weir.engine.autostart': 'false' });
  const admin = new Admin({ clientId: 'audit-check', bootstrapBrokers: [testBootstrap()] });
  try {
    const token = await a.initAdmin();
    assert.equal((await a.call('POST', '/api/rules', { token, body: rule })).status, 201);
    const tokenB = await waitFor('the admin on b', async () => {
      const res = await b.call('POST', '/api/login', { body: { username: 'admin', password: 'admin-pw' } });
      return res.status === 200 ? (res.body as { access_token: string }).access_token : undefined;
    });
    const seen = await waitFor('the rule entry on b', async () => {
      const page = (await b.call('GET', '/api/audit?kind=rule', { token: tokenB })).body as Page;
      return page.entries.length > 0 ? page.entries[0] : undefined;
    });
    assert.deepEqual([seen.user, seen.action, seen.id, seen.after], ['admin', 'create', 'r1', rule]);

    const [configs] = await admin.describeConfigs({
      resources: [
        { resourceType: 2, resourceName: `${prefix}_audit`, configurationKeys: ['cleanup.policy', 'retention.ms'] },
      ],
    });
    assert.deepEqual(Object.fromEntries(configs!.configs.map((c) => [c.name, c.value])), {
      'cleanup.policy': 'delete',
      'retention.ms': String(365 * 24 * 3600 * 1000),
    });
    // A client that is not ours reads the entry from the topic.
    const { stdout } = await promisify(execFile)('kcat', [
      '-C',
      '-b',
      testBootstrap(),
      '-t',
      `${prefix}_audit`,
      '-o',
      'beginning',
      '-e',
      '-q',
      '-X',
      'isolation.level=read_committed',
    ]);
    const fromKcat = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Entry);
    assert.ok(fromKcat.some((e) => e.kind === 'rule' && e.action === 'create' && e.id === 'r1' && e.user === 'admin'));

    // Without its audit topic no change can be stored with its entry: nothing is stored.
    await admin.deleteTopics({ topics: [`${prefix}_audit`] });
    const res = await a.call('POST', '/api/rules', { token, body: { ...rule, id: 'lost', name: 'lost' } });
    assert.equal(res.status, 503, res.text);
    assert.equal((await a.call('GET', '/api/rules/lost', { token })).status, 404);
    assert.equal((await b.call('GET', '/api/rules/lost', { token: tokenB })).status, 404);
  } finally {
    await admin.close();
    await b.stop();
    await a.stop();
  }
});
