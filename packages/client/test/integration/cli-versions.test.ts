import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';
import { weirctl } from '../helpers/weirctl.ts';

/**
 * `weirctl history`, `diff`, `rollback` and `--note` (docs/cli.md, "history, diff, rollback")
 * against a real node: what the commands print, and what the node's API reads back.
 */

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const rule = (pdl: string, annotations: string[]) =>
  `kind: Rule\nspec:\n  id: cli-shell\n  name: Shell\n  description: ""\n  pdl: ${pdl}\n  annotations: [${annotations.join(', ')}]\n  enabled: true\n`;

describe('weirctl versions against a real node', () => {
  let node: TestNode;
  let token: string;
  let dir: string;
  const cli = (args: string[]) => weirctl(args, { configHome: dir, cwd: dir });
  const api = async (p: string) => {
    const res = await node.call('GET', p, { token });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  before(async () => {
    node = await startTestNode({ 'weir.engine.autostart': 'false' });
    token = await node.initAdmin();
    dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-versions-'));
    const login = await weirctl(['login', '--server', node.url, '-u', 'admin', '--password-stdin', '--insecure'], {
      configHome: dir,
      input: 'admin-pw\n',
    });
    assert.equal(login.code, 0, login.stderr);
  });
  after(async () => {
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('apply --note stores the note with each version; history lists them as a table and as JSON', async () => {
    const file = path.join(dir, 'rule.yaml');
    writeFileSync(file, rule('user="root" AND action="login"', ['T1078']));
    const first = await cli(['apply', '-f', file, '--note', 'first cut']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, 'rule/cli-shell created\n');
    writeFileSync(file, rule('user="root" AND action="su"', ['T1078', 'T1548']));
    const second = await cli(['apply', '-f', file, '--note', 'su, not login → T1548']);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, 'rule/cli-shell configured\n');

    const versions = (await api('/api/rules/cli-shell/versions')) as { time: string }[];
    const table = await cli(['history', 'rule', 'cli-shell']);
    assert.equal(table.code, 0, table.stderr);
    assert.equal(
      table.stdout,
      [
        'VERSION  TIME                      USER   ACTION  NOTE',
        `1        ${versions[0]!.time}  admin  create  first cut`,
        `2        ${versions[1]!.time}  admin  update  su, not login → T1548`,
        '',
      ].join('\n'),
    );
    const json = await cli(['history', 'rules', 'cli-shell', '-o', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const listed = JSON.parse(json.stdout) as { time: string }[];
    assert.match(listed[0]!.time, iso);
    assert.deepEqual(listed, [
      { version: 1, time: versions[0]!.time, user: 'admin', action: 'create', note: 'first cut' },
      { version: 2, time: versions[1]!.time, user: 'admin', action: 'update', note: 'su, not login → T1548' },
    ]);

    const one = await cli(['history', 'rule', 'cli-shell', '1', '-o', 'json']);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(JSON.parse(one.stdout), await api('/api/rules/cli-shell/versions/1'));
    assert.equal((JSON.parse(one.stdout) as { record: { pdl: string } }).record.pdl, 'user="root" AND action="login"');
  });

  test('diff: the changed fields and the PDL line by line; to defaults to the latest; -o json is the API answer', async () => {
    const expected = [
      '--- rule/cli-shell version 1',
      '+++ rule/cli-shell version 2',
      '+ annotations[1]: "T1548"',
      'pdl:',
      '  - user="root" AND action="login"',
      '  + user="root" AND action="su"',
      '',
    ].join('\n');
    const d = await cli(['diff', 'rule', 'cli-shell', '1', '2']);
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.stdout, expected);
    const latest = await cli(['diff', 'rule', 'cli-shell', '1']);
    assert.equal(latest.stdout, expected);
    const same = await cli(['diff', 'rule', 'cli-shell', '2', '2']);
    assert.equal(same.stdout, 'rule/cli-shell: no differences between versions 2 and 2\n');
    const json = await cli(['diff', 'rule', 'cli-shell', '2', '1', '-o', 'json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), await api('/api/rules/cli-shell/versions/2/diff/1'));
  });

  test('rollback stores the version again as a new version with the note; the node serves the old rule', async () => {
    const r = await cli(['rollback', 'rule', 'cli-shell', '1', '--note', 'su alerts were noise']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'rule/cli-shell rolled back to version 1 (stored as version 3)\n');
    const stored = (await api('/api/rules/cli-shell')) as { pdl: string; annotations: string[] };
    assert.deepEqual([stored.pdl, stored.annotations], ['user="root" AND action="login"', ['T1078']]);
    const versions = (await api('/api/rules/cli-shell/versions')) as Record<string, unknown>[];
    assert.deepEqual(versions[2], {
      version: 3,
      time: versions[2]!.time,
      user: 'admin',
      action: 'update',
      note: 'su alerts were noise',
      rollbackOf: 1,
    });
    const table = await cli(['history', 'rule', 'cli-shell']);
    assert.match(table.stdout.split('\n')[3]!, /^3 +\S+ +admin +update \(rollback of 1\) +su alerts were noise$/);
  });

  test('delete --note and a task: the note on the deletion; numeric ids', async () => {
    const file = path.join(dir, 'task.yaml');
    writeFileSync(
      file,
      'kind: Task\nspec:\n  id: 41\n  name: kv\n  description: ""\n  function: PARSE_KV\n  definition: {}\n',
    );
    const applied = await cli(['apply', '-f', file, '--note', 'parse key=value logs']);
    assert.equal(applied.code, 0, applied.stderr);
    const del = await cli(['delete', 'task', '41', '--note', 'replaced by JSON logs']);
    assert.equal(del.code, 0, del.stderr);
    const listed = JSON.parse((await cli(['history', 'task', '41', '-o', 'json'])).stdout) as {
      action: string;
      note: string;
    }[];
    assert.deepEqual(
      listed.map((v) => [v.action, v.note]),
      [
        ['create', 'parse key=value logs'],
        ['delete', 'replaced by JSON logs'],
      ],
    );
    const gone = await cli(['history', 'task', '41', '2', '-o', 'json']);
    assert.equal((JSON.parse(gone.stdout) as { record: unknown }).record, null);
  });

  test('an unknown version or id is the API 404 (exit 1); a bad version, kind or note exits 2 before sending', async () => {
    const missing = await cli(['diff', 'rule', 'cli-shell', '1', '9']);
    assert.equal(missing.code, 1);
    assert.equal(
      missing.stderr,
      "error: Resource not found: Rule 'cli-shell' has no version 9; it has versions 1 to 3. (HTTP 404)\n",
    );
    const rollbackMissing = await cli(['rollback', 'rule', 'cli-shell', '7']);
    assert.equal(rollbackMissing.code, 1);
    assert.match(
      rollbackMissing.stderr,
      /^error: Resource not found: Rule 'cli-shell' has no version 7; it has versions 1 to 3\./,
    );
    const noSuchRule = await cli(['history', 'rule', 'no-such-rule']);
    assert.equal(noSuchRule.code, 1);
    assert.match(noSuchRule.stderr, /^error: Resource not found: Rule 'no-such-rule' has no versions/);

    const bad = await cli(['history', 'rule', 'cli-shell', 'latest']);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /^error: history: <version> must be a version number \(a whole number from 1\), found 'latest'\n/,
    );
    const topic = await cli(['rollback', 'topic', 'events', '1']);
    assert.equal(topic.code, 2);
    assert.match(
      topic.stderr,
      /rollback: topics keep no versions; versions are kept for rules, tasks, pipelines, topologies/,
    );
    const taskId = await cli(['history', 'task', 'kv']);
    assert.equal(taskId.code, 2);
    assert.match(taskId.stderr, /history: tasks have integer ids, found 'kv'/);
    const blank = await cli(['rollback', 'rule', 'cli-shell', '2', '--note', '']);
    assert.equal(blank.code, 2);
    assert.match(blank.stderr, /rollback: --note is blank/);
    assert.equal(((await api('/api/rules/cli-shell/versions')) as unknown[]).length, 3, 'nothing was written');
  });
});
