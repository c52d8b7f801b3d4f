import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';
import { makeFetch } from '../../src/cli/transport.ts';
import { ExtraEndpoints, WeirApiError, WeirClient, type Rule, type Task } from '../../src/index.ts';

/**
 * The SDK's versions (docs/client.md): `versions`, `version`, `diff`, `rollback` of each resource and
 * the change note of every write, against a real node over HTTPS; the node's API reads back each one.
 */

const rule = (pdl: string): Rule => ({
  id: 'sdk-shell',
  name: 'Shell',
  description: '',
  pdl,
  annotations: [],
  enabled: true,
});

describe('SDK versions against a real node', () => {
  let node: TestNode;
  let token: string;
  let weir: WeirClient;
  const notes = async (p: string) =>
    ((await node.call('GET', p, { token })).body as { note?: string }[]).map((v) => v.note);

  before(async () => {
    node = await startTestNode({ 'weir.engine.autostart': 'false' });
    token = await node.initAdmin();
    weir = new WeirClient({ baseUrl: node.url, fetch: makeFetch({ insecure: true }) });
    await weir.login('admin', 'admin-pw');
  });
  after(() => node?.stop());

  test('create and update with a note (any text: sent percent-encoded); versions and version read them back', async () => {
    await weir.rules.create(rule('user="root"'), 'first cut');
    await weir.rules.update('sdk-shell', rule('user="root" AND action="su"'), 'nur root → su, 100 %');
    const versions = await weir.rules.versions('sdk-shell');
    assert.deepEqual(
      versions,
      (await node.call('GET', '/api/rules/sdk-shell/versions', { token })).body,
      'as the API answers',
    );
    assert.deepEqual(
      versions.map((v) => [v.version, v.user, v.action, v.note]),
      [
        [1, 'admin', 'create', 'first cut'],
        [2, 'admin', 'update', 'nur root → su, 100 %'],
      ],
    );
    const first = await weir.rules.version('sdk-shell', 1);
    assert.deepEqual(first, (await node.call('GET', '/api/rules/sdk-shell/versions/1', { token })).body);
    assert.deepEqual({ ...first, record: undefined }, { ...versions[0], record: undefined });
    assert.equal((first.record as Rule).pdl, 'user="root"');
  });

  test('diff: the changed fields and, for rules, the PDL line by line', async () => {
    assert.deepEqual(await weir.rules.diff('sdk-shell', 1, 2), {
      from: 1,
      to: 2,
      changes: [{ path: 'pdl', before: 'user="root"', after: 'user="root" AND action="su"' }],
      pdl: [
        { op: '-', text: 'user="root"' },
        { op: '+', text: 'user="root" AND action="su"' },
      ],
    });
  });

  test('rollback returns the record stored again; the new version names the one it restored', async () => {
    const back = await weir.rules.rollback('sdk-shell', 1, 'too noisy');
    assert.equal(back.pdl, 'user="root"');
    assert.equal((await weir.rules.get('sdk-shell')).pdl, 'user="root"');
    const latest = (await weir.rules.versions('sdk-shell')).at(-1)!;
    assert.deepEqual([latest.version, latest.action, latest.rollbackOf, latest.note], [3, 'update', 1, 'too noisy']);
  });

  test('bulk and delete carry the note; a task (integer id) keeps its history after the delete', async () => {
    const task = (id: number): Task => ({
      id,
      name: `kv${id}`,
      description: '',
      function: 'PARSE_KV',
      definition: {},
    });
    await weir.tasks.bulk([task(51), task(52)], 'two parsers');
    await weir.tasks.delete(52, 'not needed');
    assert.deepEqual(await notes('/api/tasks/51/versions'), ['two parsers']);
    const gone = await weir.tasks.versions(52);
    assert.deepEqual(
      gone.map((v) => [v.action, v.note]),
      [
        ['create', 'two parsers'],
        ['delete', 'not needed'],
      ],
    );
    assert.equal((await weir.tasks.version(52, 2)).record, null);
  });

  test('the Sigma import of ExtraEndpoints sends the note; without one the server notes "Sigma import"', async () => {
    const extra = new ExtraEndpoints(weir, node.url, makeFetch({ insecure: true }));
    const yaml = (title: string) =>
      [
        `title: ${title}`,
        'id: 0c4b7e2a-1d3f-4e5a-8b6c-7d8e9f0a1b2c',
        'logsource: { product: windows, category: process_creation }',
        'detection:',
        '  selection:',
        '    Image|endswith: \\whoami.exe',
        '  condition: selection',
        '',
      ].join('\n');
    const imported = await extra.sigmaImport({ yaml: yaml('Whoami'), dryRun: false });
    const id = imported.results[0]!.id!;
    await extra.sigmaImport({ yaml: yaml('Whoami run'), dryRun: false }, 'renamed upstream');
    assert.deepEqual(await notes(`/api/rules/${id}/versions`), ['Sigma import', 'renamed upstream']);
  });

  test('an unknown version is a WeirApiError with the API 404 naming the record and its versions', async () => {
    await assert.rejects(
      weir.rules.diff('sdk-shell', 1, 9),
      (e: unknown) =>
        e instanceof WeirApiError &&
        e.status === 404 &&
        e.body?.debugMessage === "Rule 'sdk-shell' has no version 9; it has versions 1 to 3.",
    );
    await assert.rejects(weir.tasks.rollback(999, 1), (e: unknown) => e instanceof WeirApiError && e.status === 404);
  });
});
