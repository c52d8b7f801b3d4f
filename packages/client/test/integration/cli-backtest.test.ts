import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { produce } from '@weir/test-helpers/kafka';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { bin, weirctl } from '../helpers/weirctl.ts';

/**
 * `weirctl backtest --topic` (docs/detection-as-code.md, "Backtests through a server") against a
 * real node on the broker: the example rule repository's rules over its events written to a topic,
 * the same table, expectations and JUnit as in process, a failed expectation, bad ranges, Ctrl-C.
 */
const example = path.resolve(import.meta.dirname, '../../../../docs/examples/rule-repository');
const events = readFileSync(path.join(example, 'tests/logins.ndjson'), 'utf8').trim().split('\n');

describe('weirctl backtest through a real node', () => {
  let node: TestNode;
  let dir: string;
  let from: string;
  let to: string;
  const topic = uniqueTopic('cli-backtest');
  const cli = (args: string[]) => weirctl(['backtest', ...args], { configHome: dir, cwd: example });

  before(async () => {
    node = await startTestNode({ 'weir.engine.autostart': 'false' });
    const token = await node.initAdmin();
    dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-backtest-server-'));
    const login = await weirctl(['login', '--server', node.url, '-u', 'admin', '--password-stdin', '--insecure'], {
      configHome: dir,
      input: 'admin-pw\n',
    });
    assert.equal(login.code, 0, login.stderr);
    const created = await node.call('POST', '/api/topics', {
      token,
      body: { name: topic, numberOfPartitions: 1, replicationFactor: 1 },
    });
    assert.equal(created.status, 201, created.text);
    from = new Date(Date.now() - 1000).toISOString();
    const produced = await node.call('POST', `/api/topics/${topic}/produce`, {
      token,
      body: { messages: events.map((value) => ({ value })) },
    });
    assert.equal(produced.status, 201, produced.text);
    to = new Date(Date.now() + 1000).toISOString();
  });
  after(async () => {
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the example repository over a time range of the topic: the in-process table with partition:offset positions, the expectations, the JUnit file; exit 0', async () => {
    const junit = path.join(dir, 'reports', 'logins.xml');
    const r = await cli([
      '--rules',
      'rules',
      '--topic',
      topic,
      '--from',
      from,
      '--to',
      to,
      '--expect',
      'tests/logins.expect.yml',
      '--junit',
      junit,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        'RULE                                        FROM                      MATCHES  FIRST    NOTE',
        'brute-force                                 rules/brute-force.yaml    1        0:4',
        'root-login                                  rules/root-login.pdl      2        0:0 0:7',
        'sigma-5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11  rules/sigma/whoami.yml#0  1        0:5',
        '',
        'EXPECTATION                                                  RESULT  DETAIL',
        'rule root-login: exactly 2                                   ok',
        'rule brute-force: exactly 1                                  ok',
        'rule sigma-5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11: at least 1  ok',
        'no other rule fires (othersMayFire: false)                   ok',
        '',
      ].join('\n'),
    );
    assert.match(r.stderr, /^8 event\(s\), 3 rule\(s\), \d+\.\d\d s \([\d,]+ events\/s\)\n/);
    // none of these rules is stored on the node: every alert is new
    assert.match(
      r.stderr,
      /\nbacktest [0-9a-f-]{36} on the server; against the rules in force: 4 new alert\(s\), 0 lost, 0 in both\n0 of 4 expectation\(s\) failed\n$/,
    );
    const xml = readFileSync(junit, 'utf8');
    assert.equal(
      xml,
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="weirctl backtest" tests="4" failures="0" errors="0">',
        '  <testsuite name="tests/logins.expect.yml" tests="4" failures="0" errors="0" skipped="0">',
        `    <testcase classname="${topic}" name="rule root-login: exactly 2"/>`,
        `    <testcase classname="${topic}" name="rule brute-force: exactly 1"/>`,
        `    <testcase classname="${topic}" name="rule sigma-5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11: at least 1"/>`,
        `    <testcase classname="${topic}" name="no other rule fires (othersMayFire: false)"/>`,
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });

  test('--offsets and -o json: the result with the backtest id and its diff; a failed expectation exits 1', async () => {
    const expect = path.join(dir, 'strict.expect.yml');
    writeFileSync(expect, 'rules:\n  root-login: { exactly: 3 }\n');
    const r = await cli(['--rules', 'rules', '--topic', topic, '--offsets', '0:0-8', '--expect', expect, '-o', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout) as {
      events: number;
      rules: { id: string; matches: number; first: unknown[] }[];
      backtest: { id: string; topic: string; diff: { onlyCandidate: { count: number; first: string[] } } };
      expectations: unknown;
    };
    assert.equal(out.events, 8);
    assert.deepEqual(
      out.rules.map((x) => [x.id, x.matches, x.first]),
      [
        ['brute-force', 1, [{ partition: 0, offset: 4 }]],
        [
          'root-login',
          2,
          [
            { partition: 0, offset: 0 },
            { partition: 0, offset: 7 },
          ],
        ],
        ['sigma-5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11', 1, [{ partition: 0, offset: 5 }]],
      ],
    );
    assert.equal(out.backtest.topic, topic);
    assert.equal(out.backtest.diff.onlyCandidate.count, 4);
    // what the node keeps of it is the same backtest
    const status = await node.call('GET', `/api/backtests/${out.backtest.id}`, {
      token: (await node.login('admin', 'admin-pw')).access_token,
    });
    assert.equal((status.body as { state: string }).state, 'done');
    assert.deepEqual(out.expectations, {
      file: expect,
      othersMayFire: true,
      outcomes: [
        {
          name: 'rule root-login: exactly 3',
          passed: false,
          message: `expected exactly 3 match(es), found 2 (${expect}:2:3)`,
        },
      ],
    });
    assert.match(r.stderr, /1 of 1 expectation\(s\) failed\n$/);
  });

  test("a range the node refuses: the API's error naming the field, exit 1; no rules run", async () => {
    let r = await cli(['--rules', 'rules', '--topic', 'no-such-topic', '--from', from, '--to', to]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /The backtest request is not valid: source\.topic: topic 'no-such-topic' does not exist/);
    r = await cli(['--rules', 'rules', '--topic', topic, '--from', to, '--to', from]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /source\.to: the end .* is before the start .* \(source\.from\)/);
    r = await cli(['--rules', 'rules', '--topic', topic, '--offsets', '0:0-99']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /source\.offsets\.0: \[0, 99\] is outside partition 0 of/);
  });

  test('Ctrl-C while it runs: the backtest is cancelled on the node, weirctl says so and exits 1', async () => {
    const token = (await node.login('admin', 'admin-pw')).access_token;
    const big = uniqueTopic('cli-backtest-big');
    const created = await node.call('POST', '/api/topics', {
      token,
      body: { name: big, numberOfPartitions: 1, replicationFactor: 1 },
    });
    assert.equal(created.status, 201, created.text);
    const count = 30_000;
    await produce(
      big,
      Array.from({ length: count }, (_, i) => JSON.stringify({ action: 'fail', user: `u${i % 40}`, _time: i * 1000 })),
    );
    // correlation rules: each event meets every one of them (a backtest of some seconds)
    const rules = path.join(dir, 'slow-rules');
    mkdirSync(rules, { recursive: true });
    for (let i = 0; i < 40; i++)
      writeFileSync(
        path.join(rules, `burst${i}.pdl`),
        `action="fail" | event_count timespan=10m group_by user where _aggregation.value >= ${i + 3}\n`,
      );
    const child = spawn(
      process.execPath,
      [bin, 'backtest', '--rules', rules, '--topic', big, '--offsets', `0:0-${count}`],
      {
        env: { ...process.env, XDG_CONFIG_HOME: dir, WEIR_PASSWORD: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    type Status = { id: string; state: string; progress: { eventsRead: number } };
    let running: Status | undefined;
    for (let i = 0; i < 600 && !running; i++) {
      const list = (await node.call('GET', '/api/backtests', { token })).body as Status[];
      running = list.find((b) => b.state === 'running' && b.progress.eventsRead > 0 && b.progress.eventsRead < count);
      if (!running) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(running, `a running backtest; weirctl said: ${stderr}`);
    child.kill('SIGINT');
    assert.equal(await exited, 1, stderr);
    assert.match(stderr, new RegExp(`^backtest ${running.id} cancelled \\(interrupted\\) after \\d+ event\\(s\\)\\n$`));
    const after = (await node.call('GET', `/api/backtests/${running.id}`, { token })).body as Status & {
      error: string;
    };
    assert.equal(after.state, 'cancelled');
    assert.equal(after.error, 'cancelled by admin');
  });
});
