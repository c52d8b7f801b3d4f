import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loginBody, newUserBody, userUpdateBody, usernameParams } from '../src/users.ts';
import { violationsOf } from './helpers/ajv.ts';

const admin = {
  username: 'admin',
  password: 's3cret-Pass',
  name: 'Ada',
  email: 'ada@example.com',
  roles: [{ name: 'admin' }],
};

test('a new user: username and a non-empty password are required; roles are admin or user', () => {
  const validate = violationsOf(newUserBody);
  assert.deepEqual(validate(admin), []);
  assert.deepEqual(validate({ username: 'u', password: 'p', roles: [{ id: 2, name: 'user' }] }), []);
  assert.deepEqual(validate({ username: 'u', password: '' }), ['/password minLength']);
  assert.deepEqual(validate({ name: 'x' }).sort(), ['/ required', '/ required']);
  assert.deepEqual(validate({ ...admin, roles: [{ name: 'root' }] }), ['/roles/0/name enum']);
  assert.deepEqual(validate({ ...admin, roles: [{ id: 1 }] }), ['/roles/0 required']);
  assert.deepEqual(validate({ ...admin, role: 'admin' }), ['/ additionalProperties']);
});

test('a username: 1–128 letters, digits, _ . @ -', () => {
  const validate = violationsOf(newUserBody);
  for (const username of ['a', 'ada.lovelace@example.com', 'x_y-z', 'u'.repeat(128)])
    assert.deepEqual(validate({ username, password: 'p' }), [], username);
  assert.deepEqual(validate({ username: 'a b', password: 'p' }), ['/username pattern']);
  assert.deepEqual(validate({ username: 'a/b', password: 'p' }), ['/username pattern']);
  assert.deepEqual(validate({ username: 'u'.repeat(129), password: 'p' }), ['/username maxLength']);
  assert.deepEqual(validate({ username: '', password: 'p' }).sort(), ['/username minLength', '/username pattern']);
});

test('a user update: everything optional, an empty password (keep the old one) accepted', () => {
  const validate = violationsOf(userUpdateBody);
  assert.deepEqual(validate({}), []);
  assert.deepEqual(validate({ password: '', email: 'new@example.com' }), []);
  assert.deepEqual(validate({ roles: [{ name: 'user' }, { name: 'admin' }] }), []);
  assert.deepEqual(validate({ roles: Array.from({ length: 9 }, () => ({ name: 'user' })) }), ['/roles maxItems']);
  assert.deepEqual(validate({ nickname: 'x' }), ['/ additionalProperties']);
  assert.deepEqual(violationsOf(usernameParams)({ username: 'ada' }), []);
});

test('a login: username and password', () => {
  const validate = violationsOf(loginBody);
  assert.deepEqual(validate({ username: 'admin', password: '' }), []);
  assert.deepEqual(validate({ username: 'admin' }), ['/ required']);
  assert.deepEqual(validate({ username: 1, password: 'p' }), ['/username type']);
});
