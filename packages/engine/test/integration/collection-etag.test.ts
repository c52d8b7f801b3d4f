import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { multipartBody } from '@weir/test-helpers/multipart';
import { storeModes, storeSettings } from '../helpers/store-modes.ts';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';
import { uniqueTopicPrefix } from '@weir/test-helpers/unique';

const rule = (n: number) => ({
  id: `etag-${n}`,
  name: `etag rule ${n}`,
  description: '',
  pdl: `user = "u${n}"`,
  annotations: [],
  enabled: true,
});

for (const mode of storeModes) {
  describe(`collection reads: ETag and If-None-Match (${mode} store)`, () => {
    let t: TestNode;
    let admin: string;
    let user: string;
    before(async () => {
      t = await startTestNode(storeSettings(mode));
      admin = await t.initAdmin();
      user = await t.createUser(admin, 'polly');
    });
    after(() => t.stop());

    test('ETag on the collection, 304 while it holds, a new ETag after each change', async () => {
      assert.equal((await t.call('POST', '/api/rules', { token: admin, body: rule(1) })).status, 201);
      const first = await t.call('GET', '/api/rules', { token: user });
      assert.equal(first.status, 200);
      assert.deepEqual(first.body, [rule(1)]);
      assert.match(String(first.headers['content-type']), /^application\/json; charset=utf-8/);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/, 'a strong ETag');
      assert.equal(
        (await t.call('GET', '/api/rules', { token: user })).headers.etag,
        etag,
        'the same collection keeps its ETag',
      );

      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const cached = await t.call('GET', '/api/rules', { token: user, headers: { 'if-none-match': header } });
        assert.equal(cached.status, 304, `If-None-Match: ${header}`);
        assert.equal(cached.text, '');
        assert.equal(cached.headers.etag, etag);
      }
      const stale = await t.call('GET', '/api/rules', {
        token: user,
        headers: { 'if-none-match': '"something-else"' },
      });
      assert.equal(stale.status, 200);
      assert.deepEqual(stale.body, [rule(1)]);

      assert.equal((await t.call('POST', '/api/rules', { token: admin, body: rule(2) })).status, 201);
      const afterCreate = await t.call('GET', '/api/rules', { token: user, headers: { 'if-none-match': etag } });
      assert.equal(afterCreate.status, 200, 'a created record changes the ETag');
      assert.deepEqual(afterCreate.body, [rule(1), rule(2)]);
      const etag2 = String(afterCreate.headers.etag);
      assert.notEqual(etag2, etag);

      const changed = { ...rule(2), pdl: 'user = "changed"' };
      assert.equal((await t.call('PUT', '/api/rules/etag-2', { token: admin, body: changed })).status, 200);
      const afterUpdate = await t.call('GET', '/api/rules', { token: user, headers: { 'if-none-match': etag2 } });
      assert.equal(afterUpdate.status, 200, 'an update changes the ETag');
      assert.deepEqual(afterUpdate.body, [rule(1), changed]);
      const etag3 = String(afterUpdate.headers.etag);

      assert.equal((await t.call('POST', '/api/bulk/rules', { token: admin, body: [rule(3)] })).status, 200);
      const afterBulk = await t.call('GET', '/api/rules', { token: user, headers: { 'if-none-match': etag3 } });
      assert.equal(afterBulk.status, 200, 'a bulk write changes the ETag');
      const etag4 = String(afterBulk.headers.etag);

      assert.equal((await t.call('DELETE', '/api/rules/etag-3', { token: admin })).status, 204);
      const afterDelete = await t.call('GET', '/api/rules', { token: user, headers: { 'if-none-match': etag4 } });
      assert.equal(afterDelete.status, 200, 'a delete changes the ETag');
      assert.deepEqual(afterDelete.body, [rule(1), changed]);
      assert.equal(afterDelete.headers.etag, etag3, 'the same content has the same ETag');
    });

    test('each kind has its own ETag; a change of one kind leaves the others at 304', async () => {
      const tasks = await t.call('GET', '/api/tasks', { token: user });
      assert.equal(tasks.status, 200);
      assert.deepEqual(tasks.body, []);
      const tag = String(tasks.headers.etag);
      assert.equal((await t.call('POST', '/api/rules', { token: admin, body: rule(9) })).status, 201);
      assert.equal((await t.call('GET', '/api/tasks', { token: user, headers: { 'if-none-match': tag } })).status, 304);
      const task = { id: 1, name: 'kv', description: '', function: 'PARSE_KV', definition: {} };
      assert.equal((await t.call('POST', '/api/tasks', { token: admin, body: task })).status, 201);
      const changed = await t.call('GET', '/api/tasks', { token: user, headers: { 'if-none-match': tag } });
      assert.equal(changed.status, 200);
      assert.deepEqual(changed.body, [task]);
    });

    test('lookups: ETag, 304 while they hold, a new ETag after an upload, a replacement and a delete', async () => {
      const upload = (path: string, csv: string, id?: string) => {
        const file = { name: 'file', value: csv, filename: 'table.csv', contentType: 'text/csv' };
        const { body, contentType } = multipartBody(id === undefined ? [file] : [{ name: 'id', value: id }, file]);
        return t.call('POST', path, { token: admin, body, contentType });
      };
      const read = (tag: string) => t.call('GET', '/api/lookups', { token: user, headers: { 'if-none-match': tag } });
      const empty = await t.call('GET', '/api/lookups', { token: user });
      assert.deepEqual(empty.body, []);
      const tag0 = String(empty.headers.etag);
      assert.equal((await read(tag0)).status, 304);

      assert.equal((await upload('/api/lookups', 'ip,risk\n10.0.0.1,9\n', 'ips')).status, 201);
      const created = await read(tag0);
      assert.equal(created.status, 200, 'an upload changes the ETag');
      assert.deepEqual(created.body, [{ id: 'ips', content: [{ ip: '10.0.0.1', risk: 9 }] }]);
      const tag1 = String(created.headers.etag);
      assert.equal((await read(tag1)).status, 304);

      assert.equal((await upload('/api/lookups/ips', 'ip,risk\n10.0.0.2,3\n')).status, 200);
      const replaced = await read(tag1);
      assert.equal(replaced.status, 200, 'a replaced file changes the ETag');
      assert.deepEqual(replaced.body, [{ id: 'ips', content: [{ ip: '10.0.0.2', risk: 3 }] }]);

      assert.equal((await t.call('DELETE', '/api/lookups/ips', { token: admin })).status, 204);
      const deleted = await read(String(replaced.headers.etag));
      assert.equal(deleted.status, 200, 'a delete changes the ETag');
      assert.deepEqual(deleted.body, []);
      assert.equal(deleted.headers.etag, tag0, 'the same content has the same ETag');
    });

    test('without a token: 401, no ETag', async () => {
      const res = await t.call('GET', '/api/rules', { headers: { 'if-none-match': '*' } });
      assert.equal(res.status, 401);
      assert.equal(res.headers.etag, undefined);
    });
  });
}

describe('collection reads across nodes (kafka store)', () => {
  let a: TestNode;
  let b: TestNode;
  before(async () => {
    const prefix = uniqueTopicPrefix('etag');
    a = await startTestNode(storeSettings('kafka', prefix));
    b = await startTestNode(storeSettings('kafka', prefix));
  });
  after(async () => {
    await a.stop();
    await b.stop();
  });

  test("a write on one node changes the other node's ETag once it has read it; equal content, equal ETag", async () => {
    const admin = await a.initAdmin();
    assert.equal((await a.call('POST', '/api/rules', { token: admin, body: rule(1) })).status, 201);
    const onA = await a.call('GET', '/api/rules', { token: admin });
    // b reads the write from the topic: wait (bounded) until it serves the same collection
    let onB = await b.call('GET', '/api/rules', { token: admin });
    for (let i = 0; i < 100 && JSON.stringify(onB.body) !== JSON.stringify(onA.body); i++) {
      await new Promise((r) => setTimeout(r, 100));
      onB = await b.call('GET', '/api/rules', { token: admin });
    }
    assert.deepEqual(onB.body, [rule(1)]);
    assert.equal(onB.headers.etag, onA.headers.etag, 'both nodes give the same collection the same ETag');
    const tag = String(onA.headers.etag);
    assert.equal((await b.call('GET', '/api/rules', { token: admin, headers: { 'if-none-match': tag } })).status, 304);

    assert.equal((await a.call('POST', '/api/rules', { token: admin, body: rule(2) })).status, 201);
    let fresh = await b.call('GET', '/api/rules', { token: admin, headers: { 'if-none-match': tag } });
    for (let i = 0; i < 100 && fresh.status === 304; i++) {
      await new Promise((r) => setTimeout(r, 100));
      fresh = await b.call('GET', '/api/rules', { token: admin, headers: { 'if-none-match': tag } });
    }
    assert.equal(fresh.status, 200, "node b answers the other node's write with a new ETag");
    assert.deepEqual(fresh.body, [rule(1), rule(2)]);
    assert.notEqual(fresh.headers.etag, tag);
  });
});
