import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alertEntity, fieldText } from '../../src/lib/alert-entity.ts';

test('fieldText reads nested and flattened dotted paths, scalars only', () => {
  const record = { user: { name: 'alice', roles: ['a'] }, 'host.name': 'web-1', port: 22, ok: false, none: null };
  assert.equal(fieldText(record, 'user.name'), 'alice');
  assert.equal(fieldText(record, 'host.name'), 'web-1');
  assert.equal(fieldText(record, 'port'), '22');
  assert.equal(fieldText(record, 'ok'), 'false');
  assert.equal(fieldText(record, 'user'), undefined, 'an object is no value');
  assert.equal(fieldText(record, 'user.roles'), undefined, 'an array is no value');
  assert.equal(fieldText(record, 'none'), undefined);
  assert.equal(fieldText(record, 'missing.path'), undefined);
  assert.equal(fieldText('text', 'x'), undefined);
});

test('the entity is the first user field and the first host field present', () => {
  assert.deepEqual(alertEntity({ user: 'alice', hostname: 'db-2', host: '' }), [
    { path: 'user', value: 'alice' },
    { path: 'hostname', value: 'db-2' },
  ]);
  assert.deepEqual(alertEntity({ user: { name: 'bob' }, host: { name: 'web-1' }, user_name: 'x' }), [
    { path: 'user.name', value: 'bob' },
    { path: 'host.name', value: 'web-1' },
  ]);
  assert.deepEqual(alertEntity({ TargetUserName: 'svc', src_ip: '10.0.0.9' }), [
    { path: 'TargetUserName', value: 'svc' },
    { path: 'src_ip', value: '10.0.0.9' },
  ]);
  assert.deepEqual(alertEntity({ action: 'login' }), []);
});

test("a suppressing rule's fields are the entity, in its order; null values left out", () => {
  const record = {
    user: 'alice',
    _alert: { suppression: { fields: { 'src.ip': '10.1.1.1', host: null, port: 22 } } },
  };
  assert.deepEqual(alertEntity(record), [
    { path: 'src.ip', value: '10.1.1.1' },
    { path: 'port', value: '22' },
  ]);
  // every suppression value missing: back to the user and host fields
  assert.deepEqual(alertEntity({ user: 'alice', _alert: { suppression: { fields: { host: null } } } }), [
    { path: 'user', value: 'alice' },
  ]);
});
