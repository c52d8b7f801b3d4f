import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as engine from '@weir/engine';

test('@weir/engine resolves to the public surface: the node, its API, the broker and the settings, and what test harnesses use', () => {
  assert.deepEqual(Object.keys(engine).sort(), [
    'EmbeddedBroker',
    'SettingsError',
    'WeirError',
    'WeirNode',
    'brokerDir',
    'canConnect',
    'createApi',
    'createNodeContext',
    'dropAbortedOnFetch',
    'ensureKafkaJars',
    'freePort',
    'kafkaLibDir',
    'kafkaVersion',
    'loadSettings',
    'settingDefinitions',
  ]);
  const settings = engine.loadSettings(undefined, {});
  assert.equal(settings.get('weir.broker.embedded'), 'auto');
  assert.ok(new engine.SettingsError('x') instanceof engine.WeirError);
});
