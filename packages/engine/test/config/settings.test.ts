import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadSettings, nodeUuid, settingDefinitions, SettingsError } from '../../src/config/settings.ts';

function withFile(text: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-settings-'));
  const file = path.join(dir, 'weir.properties');
  writeFileSync(file, text);
  return file;
}

test('defaults follow the spec table', () => {
  const s = loadSettings(undefined, {});
  assert.equal(s.get('bootstrap.servers'), 'localhost:9092');
  assert.equal(s.get('weir.application.id'), 'weir-engine');
  assert.equal(s.get('weir.home'), '/opt/weir');
  assert.equal(s.get('weir.group'), 'default');
  assert.equal(s.get('weir.config.store'), 'local');
  assert.equal(s.get('weir.config.location'), '/opt/weir/var/config');
  assert.equal(s.get('num.stream.threads'), 10);
  assert.equal(s.get('server.port'), 8999);
  assert.equal(s.get('server.ssl.enabled'), true);
  assert.equal(s.get('server.ssl.key-alias'), 'weir');
  assert.equal(s.get('server.ssl.key-store-type'), 'PKCS12');
  assert.equal(s.get('weir.auth.access-token-seconds'), 900);
  assert.equal(s.get('weir.auth.refresh-token-seconds'), 86400);
});

test('relative paths resolve against the file folder; WEIR_HOME overrides weir.home; ${} expands', () => {
  const file = withFile('weir.home=state\nweir.group=blue\n');
  const s = loadSettings(file, {});
  assert.equal(s.get('weir.home'), path.join(path.dirname(file), 'state'));
  assert.equal(s.get('weir.config.location'), path.join(path.dirname(file), 'state', 'var', 'config'));
  assert.equal(s.get('weir.group'), 'blue');
  const env = loadSettings(file, { WEIR_HOME: '/srv/weir' });
  assert.equal(env.get('weir.home'), '/srv/weir');
  assert.equal(env.get('weir.config.location'), '/srv/weir/var/config');
});

test('an invalid value stops with a message naming the key, the place and the accepted values', () => {
  const file = withFile('server.port=99999\n');
  assert.throws(
    () => loadSettings(file, {}),
    (err: Error) => {
      assert.ok(err instanceof SettingsError);
      assert.equal(
        err.message,
        `${file}:1: invalid value '99999' for 'server.port'; accepted: an integer from 0 to 65535`,
      );
      return true;
    },
  );
  assert.throws(
    () => loadSettings(withFile('\nweir.config.store=redis\n'), {}),
    /:2: invalid value 'redis' for 'weir.config.store'; accepted: local, kafka$/,
  );
  assert.throws(
    () => loadSettings(withFile('server.ssl.enabled=yes\n'), {}),
    /'server.ssl.enabled'; accepted: true or false$/,
  );
  assert.throws(
    () => loadSettings(withFile('weir.colour=red\n'), {}),
    /:1: unknown setting 'weir.colour'; see docs\/configuration.md/,
  );
});

test('weir.topics.masked-fields: a list of names and dotted paths; an empty part is refused', () => {
  assert.deepEqual(loadSettings(undefined, {}).get('weir.topics.masked-fields'), []);
  const s = loadSettings(withFile('weir.topics.masked-fields=password, user.ssn ,\n'), {});
  assert.deepEqual(s.get('weir.topics.masked-fields'), ['password', 'user.ssn']);
  assert.throws(
    () => loadSettings(withFile('weir.topics.masked-fields=user..ssn\n'), {}),
    /'weir.topics.masked-fields'; accepted: a comma-separated list of field names or dotted paths/,
  );
});

test('Kafka client security settings pass through', () => {
  const s = loadSettings(withFile('security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nssl.ca.location=/ca.pem\n'), {});
  assert.deepEqual(s.kafkaClient, {
    'security.protocol': 'SASL_SSL',
    'sasl.mechanism': 'PLAIN',
    'ssl.ca.location': '/ca.pem',
  });
});

test('the node uuid is generated once and kept under the home', () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'weir-home-'));
  const s = loadSettings(undefined, { WEIR_HOME: home });
  const first = nodeUuid(s);
  assert.match(first, /^[0-9a-f-]{36}$/);
  assert.equal(nodeUuid(s), first);
  assert.equal(readFileSync(path.join(home, 'var', 'node.uuid'), 'utf8').trim(), first);
  assert.equal(nodeUuid(s.with({ 'weir.uuid': 'fixed-id' })), 'fixed-id');
});

test('docs/configuration.md documents every setting', () => {
  const doc = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
  for (const key of Object.keys(settingDefinitions))
    assert.ok(doc.includes(`\`${key}\``), `docs/configuration.md does not name ${key}`);
});

test("the original's properties template loads: padas.* read as weir.* with a warning naming the new key; state.dir, schema.registry.url", () => {
  const template = readFileSync(
    new URL('../fixtures/original/docs-samples/padas.properties.spec', import.meta.url),
    'utf8',
  );
  const file = withFile(template);
  const s = loadSettings(file, {});
  assert.equal(s.get('weir.home'), '/opt/padas');
  assert.equal(s.get('weir.application.id'), 'padas-engine');
  assert.equal(s.get('weir.config.location'), '/opt/padas/var/config');
  assert.equal(s.get('weir.config.store'), 'local');
  assert.equal(s.get('state.dir'), '/opt/padas/var/state');
  assert.equal(s.optional('schema.registry.url'), '"http://localhost:8081"');
  assert.equal(s.optional('server.ssl.key-store'), undefined, 'classpath: key store ignored');
  assert.equal(s.get('weir.uuid'), undefined, 'padas.uuid= (empty) is unset');
  const line = (key: string) => template.split('\n').findIndex((l) => l.startsWith(`${key}=`)) + 1;
  assert.ok(
    s.warnings.includes(
      `${file}:${line('padas.home')}: 'padas.home' is the original's name of 'weir.home'; read as 'weir.home' (rename it)`,
    ),
    s.warnings.join('\n'),
  );
  assert.ok(
    s.warnings.includes(
      `${file}:${line('padas.config.store')}: 'padas.config.store=rocksdb' (the original's local store) is read as 'weir.config.store=local' (SQLite)`,
    ),
  );
  assert.equal(s.warnings.filter((w) => w.includes("is the original's name of")).length, 6);
  // state.dir defaults under the home; padas.* keys without a Weir counterpart stay unknown.
  assert.equal(loadSettings(withFile('weir.home=/srv/w\n'), {}).get('state.dir'), '/srv/w/var/state');
  assert.throws(() => loadSettings(withFile('padas.colour=red\n'), {}), /:1: unknown setting 'padas.colour'/);
});
