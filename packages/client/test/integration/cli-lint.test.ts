import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTopics, produce } from '@weir/test-helpers/kafka';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { weirctl } from '../helpers/weirctl.ts';

/**
 * `weirctl lint --topic` (docs/cli.md, "lint") against a real node and broker: the PDL is linted by
 * the server, its fields against the topic's most recent records; Sigma stays local.
 */
describe('weirctl lint --topic against a real node', () => {
  const topic = uniqueTopic('cli-lint');
  let node: TestNode;
  let dir: string;
  const cli = (args: string[]) => weirctl(args, { configHome: dir, cwd: dir });

  before(async () => {
    node = await startTestNode({ 'weir.engine.autostart': 'false' });
    await node.initAdmin();
    await createTopics([topic], 1);
    await produce(topic, [JSON.stringify({ old_name: 'x' }), JSON.stringify({ user: 'bob', action: 'login' })]);
    dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-lint-topic-'));
    const login = await weirctl(['login', '--server', node.url, '-u', 'admin', '--password-stdin', '--insecure'], {
      configHome: dir,
      input: 'admin-pw\n',
    });
    assert.equal(login.code, 0, login.stderr);
    writeFileSync(path.join(dir, 'login.pdl'), 'usr = "bob" AND old_name = "x"\n');
  });
  after(async () => {
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('fields against the topic’s recent records: warnings with did-you-mean, exit 0; --strict exit 1', async () => {
    const r = await cli(['lint', '--topic', topic, '--sample', '1', 'login.pdl']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        `login.pdl:1:1 warning PDL_FIELD_NOT_SEEN field \`usr\` is in none of the 1 sample event(s) of topic ${topic} (did you mean \`user\`?) [fix: Use field \`user\`]`,
        `login.pdl:1:17 warning PDL_FIELD_NOT_SEEN field \`old_name\` is in none of the 1 sample event(s) of topic ${topic}`,
        '',
      ].join('\n'),
    );
    assert.equal(r.stderr, '0 error(s), 2 warning(s), 0 info(s)\n');
    // the default sample (100) reaches the older record
    const all = await cli(['lint', '--topic', topic, '--strict', 'login.pdl']);
    assert.equal(all.code, 1, all.stderr);
    assert.deepEqual(all.stdout.trimEnd().split('\n').length, 1);
  });

  test('an unknown topic: the server’s 404 naming it, exit 1', async () => {
    const r = await cli(['lint', '--topic', `${topic}-none`, 'login.pdl']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`topic '${topic}-none' does not exist`));
  });
});
