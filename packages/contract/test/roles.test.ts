import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roleIds, roleNames } from '../src/roles.ts';
import { newUserBody } from '../src/users.ts';

test('two roles with fixed ids, so every node answers the same roles[].id', () => {
  assert.deepEqual(roleIds, { admin: 1, user: 2 });
  assert.deepEqual(roleNames, ['admin', 'user']);
});

test('a user body names its roles by these names only', () => {
  assert.deepEqual(newUserBody.properties.roles.items.properties.name.enum, roleNames);
});
