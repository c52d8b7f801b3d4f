import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { kcatProduce } from '@weir/test-helpers/kcat';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';
import { weirctl } from '../helpers/weirctl.ts';

/**
 * `weirctl alerts` (docs/cli.md, "alerts") against a real node: alert records written to its alerts
 * topic with kcat are listed, filtered, read, grouped, acknowledged and closed through the command,
 * and the node's API reads back each triage.
 */
const T0 = Date.UTC(2026, 10, 26, 8);
const id = (n: number) => createHash('sha256').update(`cli-alert-${n}`).digest('hex').slice(0, 32);
const alert = (n: number, rule: string, severity: string, user: string) =>
  JSON.stringify({
    user,
    n,
    _time: T0 + n * 1000,
    _rule: { id: rule, name: `Rule ${rule}`, annotations: rule === 'brute' ? ['T1110'] : [] },
    _alert: {
      id: id(n),
      severity,
      techniques: rule === 'brute' ? ['T1110'] : [],
      time: T0 + n * 1000,
      source: { topic: 'auth', partition: 0, offset: n },
    },
  });

describe('weirctl alerts against a real node', () => {
  let node: TestNode;
  let token: string;
  let dir: string;
  const settings = isolatedEngine('cli-alerts');
  const cli = (args: string[]) => weirctl(args, { configHome: dir });

  before(async () => {
    node = await startTestNode({ ...settings, 'weir.engine.autostart': 'false' });
    token = await node.initAdmin();
    dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-alerts-'));
    const login = await weirctl(['login', '--server', node.url, '-u', 'admin', '--password-stdin', '--insecure'], {
      configHome: dir,
      input: 'admin-pw\n',
    });
    assert.equal(login.code, 0, login.stderr);
    await kcatProduce(`${settings['weir.topic.prefix']}_alerts`, [
      alert(1, 'brute', 'high', 'alice'),
      alert(2, 'brute', 'high', 'bob'),
      alert(3, 'brute', 'high', 'alice'),
      alert(4, 'root', 'critical', 'root'),
    ]);
    await waitFor('4 alerts in the index', async () => {
      const res = await node.call('GET', '/api/alerts', { token });
      return (res.body as { alerts: unknown[] }).alerts.length === 4;
    });
  });
  after(async () => {
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('list: newest first as a table; filters; json; --all follows the pages', async () => {
    const all = await cli(['alerts', 'list']);
    assert.equal(all.code, 0, all.stderr);
    const rows = all.stdout.trim().split('\n');
    assert.match(rows[0]!, /^ID +TIME +SEVERITY +RULE +STATUS +ASSIGNEE +SILENCED$/);
    assert.deepEqual(
      rows.slice(1).map((r) => r.split(/ +/).slice(0, 5)),
      [4, 3, 2, 1].map((n) => [
        id(n),
        new Date(T0 + n * 1000).toISOString(),
        n === 4 ? 'critical' : 'high',
        n === 4 ? 'root' : 'brute',
        'new',
      ]),
    );
    const filtered = await cli(['alerts', 'list', '--rule', 'brute', '--field', 'user=alice', '-o', 'json']);
    assert.equal(filtered.code, 0, filtered.stderr);
    assert.deepEqual(
      (JSON.parse(filtered.stdout) as { id: string }[]).map((a) => a.id),
      [id(3), id(1)],
    );
    const paged = await cli(['alerts', 'list', '--limit', '1', '--all', '--min-severity', 'high', '-o', 'json']);
    assert.deepEqual(
      (JSON.parse(paged.stdout) as { id: string }[]).map((a) => a.id),
      [4, 3, 2, 1].map(id),
    );
    const bad = await cli(['alerts', 'list', '--severity', 'severe']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--severity must be one of informational, low, medium, high, critical, found 'severe'/);
  });

  test('get, group, ack and close: the API reads back each change', async () => {
    const one = await cli(['alerts', 'get', id(4)]);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual((JSON.parse(one.stdout) as { record: { user: string } }).record.user, 'root');
    const missing = await cli(['alerts', 'get', 'f'.repeat(32)]);
    assert.equal(missing.code, 1);

    const groups = await cli(['alerts', 'group', '--by', 'field:user']);
    assert.equal(groups.code, 0, groups.stderr);
    const lines = groups.stdout.trim().split('\n');
    assert.match(lines[0]!, /^USER +COUNT +FIRST SEEN +LAST SEEN$/);
    assert.deepEqual(
      lines
        .slice(1)
        .map((l) => l.split(/ +/).slice(0, 2))
        .sort(),
      [
        ['alice', '2'],
        ['bob', '1'],
        ['root', '1'],
      ],
    );

    const acked = await cli(['alerts', 'ack', id(1), id(3), '--assignee', 'ann', '--note', 'looking']);
    assert.equal(acked.code, 0, acked.stderr);
    const closed = await cli(['alerts', 'close', id(2), '--resolution', 'false_positive', '--note', 'scanner']);
    assert.equal(closed.code, 0, closed.stderr);
    assert.match(closed.stdout, /closed \(false_positive\)/);
    const read = async (n: number) =>
      (await node.call('GET', `/api/alerts/${id(n)}`, { token })).body as {
        status: string;
        resolution: string | null;
        assignee: string | null;
        notes: { user: string; text: string }[];
      };
    for (const n of [1, 3]) {
      const a = await read(n);
      assert.deepEqual(
        [a.status, a.assignee, a.notes.map((x) => [x.user, x.text])],
        ['acknowledged', 'ann', [['admin', 'looking']]],
      );
    }
    const fp = await read(2);
    assert.deepEqual([fp.status, fp.resolution], ['closed', 'false_positive']);

    const noResolution = await cli(['alerts', 'close', id(4)]);
    assert.equal(noResolution.code, 2);
    assert.match(noResolution.stderr, /give --resolution/);
    assert.equal((await read(4)).status, 'new', 'nothing sent');
  });
});
