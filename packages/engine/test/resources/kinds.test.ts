import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collections, configKinds, resourceKindInfos } from '@weir/contract';
import { settingDefinitions } from '../../src/config/settings.ts';
import { resourceKinds } from '../../src/resources/kinds.ts';

test("the engine serves the contract's registry: each kind's data as the registry has it", () => {
  assert.deepEqual(
    resourceKinds.map((k) => k.path),
    Object.keys(configKinds),
  );
  for (const kind of resourceKinds) {
    const { latest: _latest, check: _check, ...data } = kind;
    assert.deepEqual(data, configKinds[kind.path]);
  }
});

test('every kind of the registry is a store collection, and every count limit it names is a setting', () => {
  for (const kind of resourceKindInfos) {
    assert.ok((collections as readonly string[]).includes(kind.collection), kind.path);
    if ('countLimitSetting' in kind) assert.ok(kind.countLimitSetting in settingDefinitions, kind.countLimitSetting);
  }
  assert.deepEqual(
    resourceKindInfos.filter((k) => 'countLimitSetting' in k).map((k) => k.path),
    ['rules'],
  );
});
