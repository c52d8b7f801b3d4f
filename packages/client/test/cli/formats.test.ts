import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { configFile, readConfig, writeConfig } from '../../src/cli/config.ts';
import { lineDiff } from '../../src/cli/diff.ts';
import { UsageError } from '../../src/cli/errors.ts';
import { parseEvents } from '../../src/cli/events.ts';
import { kindByName } from '../../src/cli/kinds.ts';
import { manifestFiles, parseManifests } from '../../src/cli/manifests.ts';
import { formatRecords, table } from '../../src/cli/output.ts';
import { bashCompletion, zshCompletion } from '../../src/cli/completion.ts';
import { isUserTopic } from '../../src/cli/apply.ts';

const rules = kindByName('rules')!;
const rows = [
  { id: 'r1', name: 'Root', enabled: true, annotations: ['T1078', 'T1110'], pdl: 'user="root"', description: '' },
  { id: 'long', name: 'Long', enabled: false, annotations: [], pdl: `a="${'x'.repeat(100)}"`, description: '' },
];

describe('weirctl output', () => {
  test('tables: capital headers, aligned columns, lists joined, long cells cut with an ellipsis', () => {
    const out = formatRecords(rules, rows, 'table').split('\n');
    assert.equal(out[0], 'ID    NAME  ENABLED  ANNOTATIONS  PDL');
    assert.equal(out[1], 'r1    Root  true     T1078,T1110  user="root"');
    assert.ok(out[2]!.startsWith('long  Long  false                 a="xxx'));
    assert.ok(out[2]!.endsWith('…'));
    assert.equal(out[2]!.length, 'long  Long  false                 '.length + 60);
    assert.equal(table(['A', 'B'], [['x\ny', 1]]), 'A    B\nx y  1\n', 'a cell is one line');
  });

  test('json and yaml give the records whole', () => {
    assert.deepEqual(JSON.parse(formatRecords(rules, rows, 'json')), rows);
    assert.deepEqual(parse(formatRecords(rules, rows, 'yaml')), rows);
  });

  test('line diff: - and + lines with context', () => {
    assert.equal(lineDiff('a\nb\nc\n', 'a\nB\nc\n'), '  a\n- b\n+ B\n  c\n');
    assert.equal(lineDiff('', 'x: 1\n'), '+ x: 1\n');
    assert.equal(lineDiff('same\n', 'same\n'), '', 'no change: nothing');
    const long = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const d = lineDiff(long, long.replace('l10', 'L10'), 1);
    assert.equal(d, '  …\n  l9\n- l10\n+ L10\n  l11\n  …\n');
  });
});

describe('weirctl input files', () => {
  test('events: NDJSON (blank lines skipped), JSON array, raw lines; a bad line is named', () => {
    assert.deepEqual(
      parseEvents('{"a":1}\n\n{"a":2}\n', 'e').map((e) => [e.value, e.where]),
      [
        [{ a: 1 }, 'e:1'],
        [{ a: 2 }, 'e:3'],
      ],
    );
    assert.deepEqual(
      parseEvents(' [{"a":1},"text"]', 'e').map((e) => [e.text, e.where]),
      [
        ['{"a":1}', 'e[0]'],
        ['text', 'e[1]'],
      ],
    );
    assert.deepEqual(
      parseEvents('user=a x=1\n\nuser=b\n', 'raw.log', true).map((e) => e.text),
      ['user=a x=1', 'user=b'],
    );
    assert.throws(
      () => parseEvents('{"a":1}\n{oops\n', 'e.ndjson'),
      (e: unknown) => e instanceof UsageError && /^e\.ndjson:2: not JSON/.test(e.message),
    );
    assert.throws(() => parseEvents('[{"a":1},', 'e.json'), /e\.json: not a JSON array/);
  });

  test('manifests: YAML documents, lists, kind List, JSON arrays; each error names file and document', () => {
    const yaml =
      'kind: Rule\nspec: {id: r1, name: R1}\n---\n- kind: task\n  spec: {id: 3, name: t}\n---\nkind: List\nitems:\n  - kind: Topic\n    spec: {name: t1}\n';
    const m = parseManifests(yaml, 'f.yaml');
    assert.deepEqual(
      m.map((x) => [x.kind.kind, x.id, x.where]),
      [
        ['Rule', 'r1', 'f.yaml#1'],
        ['Task', 3, 'f.yaml#2[0]'],
        ['Topic', 't1', 'f.yaml#3.items[0]'],
      ],
    );
    assert.deepEqual(
      parseManifests('[{"kind":"Pipeline","spec":{"id":1,"tasks":[]}}]', 'p.json').map((x) => x.where),
      ['p.json[0]'],
    );
    assert.deepEqual(parseManifests('', 'empty.yaml'), []);
    const bad = (text: string, re: RegExp) =>
      assert.throws(
        () => parseManifests(text, 'b.yaml'),
        (e: unknown) => e instanceof UsageError && re.test(e.message),
      );
    bad('spec: {id: x}\n', /^b\.yaml: missing kind \(one of Topic, Lookup, Rule, Task, Pipeline, Topology\)/);
    bad('kind: Gadget\nspec: {}\n', /unknown kind 'Gadget'/);
    bad('kind: User\nspec: {username: u}\n', /unknown kind 'User'/);
    bad('kind: Rule\nid: r1\nspec: {id: r1}\n', /unknown field id next to kind \(the record goes under spec\)/);
    bad('kind: Task\nspec: {id: "3"}\n', /Task spec\.id must be an integer, found "3"/);
    bad('kind: Rule\nspec: [1]\n', /Rule needs a spec object/);
    bad('kind: Rule\nspec: {id: r1}\n---\nkind: [\n', /^b\.yaml:\d+:\d+: not valid YAML/);
    bad('42\n', /b\.yaml: expected an object with kind and spec, found 42/);
  });

  test('folders: .yaml, .yml and .json files, recursively, in name order; a missing path is an error', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-unit-'));
    try {
      for (const f of ['b.yaml', 'a.json', 'notes.txt', 'c.yml']) writeFileSync(path.join(dir, f), '');
      assert.deepEqual(
        manifestFiles([dir]).map((f) => path.basename(f)),
        ['a.json', 'b.yaml', 'c.yml'],
      );
      assert.deepEqual(
        manifestFiles([path.join(dir, 'notes.txt')]).map((f) => path.basename(f)),
        ['notes.txt'],
        'a file named explicitly is read',
      );
      assert.throws(() => manifestFiles([path.join(dir, 'nope')]), /nope: no such file or folder/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('weirctl config and completion', () => {
  test('the config lives in $XDG_CONFIG_HOME/weir (else ~/.config/weir) with mode 0600', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-conf-'));
    try {
      const env = { XDG_CONFIG_HOME: dir };
      assert.equal(configFile(env), path.join(dir, 'weir', 'config.json'));
      assert.equal(configFile({ HOME: os.homedir() }), path.join(os.homedir(), '.config', 'weir', 'config.json'));
      assert.deepEqual(readConfig(env), {});
      writeConfig({ server: 'https://h', tokens: { access_token: 'a', refresh_token: 'r' } }, env);
      assert.equal(statSync(configFile(env)).mode & 0o777, 0o600);
      assert.equal(statSync(path.join(dir, 'weir')).mode & 0o777, 0o700);
      assert.equal(readConfig(env).tokens?.refresh_token, 'r');
      writeFileSync(configFile(env), '{broken');
      assert.throws(() => readConfig(env), /config\.json is not valid JSON/);
      assert.match(readFileSync(configFile(env), 'utf8'), /broken/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('completion scripts name the commands and kinds', () => {
    const bash = bashCompletion();
    assert.match(bash, /complete -F _weirctl weirctl/);
    assert.match(
      bash,
      /compgen -W "login logout get describe apply delete history diff rollback export import test produce reset-offsets consume engine nodes diagnose alerts silence backtest explain lint sigma completion help"/,
    );
    assert.match(bash, /compgen -W "topics lookups rules tasks pipelines topologies users nodes groups"/);
    assert.match(bash, /history\|diff\|rollback\) COMPREPLY=\( \$\(compgen -W "rules tasks pipelines topologies"/);
    assert.match(bash, /silence\) COMPREPLY=\( \$\(compgen -W "list create expire"/);
    assert.match(
      bash,
      /--rules\|--events\|--expect\|--junit\|--mapping-file\|--rule\|--event\) COMPREPLY=\( \$\(compgen -f/,
    );
    assert.match(bash, /if \[ "\$cmd" = backtest \]; then COMPREPLY=\( \$\(compgen -W "table json yaml junit"/);
    assert.match(zshCompletion(), /bashcompinit/);
  });

  test('internal topics are left out of exports', () => {
    assert.deepEqual(
      [
        'events',
        '_schemas',
        '__consumer_offsets',
        'weir_alerts',
        'app-store-changelog',
        'x-repartition',
        'alerts',
      ].filter(isUserTopic),
      ['events', 'alerts'],
    );
  });
});

describe('weirctl apply: what counts as unchanged', () => {
  test('fields the spec gives, at every depth; topic options as text; arrays by length and order', async () => {
    const { sameAs } = await import('../../src/cli/apply.ts');
    const stored = {
      id: 1,
      name: 't',
      input: { name: 'in', keySerde: 'S', valueSerde: 'S' },
      output: [{ name: 'out', keySerde: 'S' }],
      enabled: false,
    };
    assert.equal(sameAs(stored, { id: 1, input: { name: 'in' }, output: [{ name: 'out' }] }), true);
    assert.equal(sameAs(stored, { input: { name: 'other' } }), false);
    assert.equal(sameAs(stored, { output: [] }), false);
    assert.equal(sameAs(stored, { output: [{ name: 'out' }, { name: 'out2' }] }), false);
    assert.equal(sameAs(stored, { enabled: true }), false);
    assert.equal(sameAs({ options: { 'retention.ms': '1000' } }, { options: { 'retention.ms': 1000 } }), true);
    assert.equal(sameAs({ n: '1' }, { n: 1 }), false, 'only options are compared as text');
    assert.equal(sameAs({ tags: ['a', 'b'] }, { tags: ['b', 'a'] }), false);
  });
});
