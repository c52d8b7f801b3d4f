import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { Admin } from '@platformatic/kafka';
import { kafkaConsumerGroupsDescribe } from '@weir/test-helpers/kafka-tools';
import { startTestNode, testBootstrap, type TestNode } from '@weir/test-helpers/test-node';
import { bin, weirctl } from '../helpers/weirctl.ts';

/**
 * weirctl end to end: the real command (bin/weirctl.js) as a child process, against real nodes on
 * the test broker, over HTTPS with the node's self-signed certificate.
 */

const lines = (s: string) =>
  s
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The certificate the node presents, as PEM (what a user would save and give to --ca). */
async function serverCertificate(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      resolve(
        `-----BEGIN CERTIFICATE-----\n${raw
          .toString('base64')
          .match(/.{1,64}/g)!
          .join('\n')}\n-----END CERTIFICATE-----\n`,
      );
    });
    socket.on('error', reject);
  });
}

describe('weirctl against a real node', () => {
  let a: TestNode;
  let b: TestNode;
  let dir: string;
  let homeA: string;
  let homeB: string;
  let admin: string;
  const suffix = `${process.pid}-${Date.now()}`;
  const topic = `cli-events-${suffix}`;
  const cli = (args: string[], input?: string) => weirctl(args, { configHome: homeA, input, cwd: dir });

  before(async () => {
    a = await startTestNode({ 'weir.engine.autostart': 'false' });
    admin = await a.initAdmin();
    dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-test-'));
    homeA = path.join(dir, 'config-a');
    homeB = path.join(dir, 'config-b');
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('login: a wrong password fails with exit 1, an untrusted certificate names --ca, usage errors exit 2', async () => {
    const wrong = await cli(['login', '--server', a.url, '-u', 'admin', '--password-stdin', '--insecure'], 'nope\n');
    assert.equal(wrong.code, 1, wrong.stderr);
    assert.match(wrong.stderr, /^error: /);
    const untrusted = await cli(['login', '--server', a.url, '-u', 'admin', '--password-stdin'], 'admin-pw\n');
    assert.equal(untrusted.code, 1);
    assert.match(untrusted.stderr, /--ca FILE, or --insecure/);
    const noServer = await cli(['get', 'rules']);
    assert.equal(noServer.code, 2);
    assert.match(noServer.stderr, /weirctl login --server/);
    assert.equal((await cli(['get'])).code, 2);
    assert.equal((await cli(['frobnicate'])).code, 2);
  });

  test('login with --ca stores the token pair in $XDG_CONFIG_HOME/weir/config.json with mode 0600', async () => {
    const ca = path.join(dir, 'node.pem');
    writeFileSync(ca, await serverCertificate(a.url));
    const r = await cli(['login', '--server', a.url, '-u', 'admin', '--password-stdin', '--ca', ca], 'admin-pw\n');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `Logged in to ${a.url.replace(/\/$/, '')} as admin\n`);
    const file = path.join(homeA, 'weir', 'config.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const config = JSON.parse(readFileSync(file, 'utf8')) as {
      server: string;
      username: string;
      tokens: { access_token: string; refresh_token: string };
    };
    assert.equal(config.server, a.url.replace(/\/$/, ''));
    assert.equal(config.username, 'admin');
    assert.equal((config as { ca?: string }).ca, ca, 'later commands trust the same CA');
    assert.ok(config.tokens.access_token && config.tokens.refresh_token);
    const state = await cli(['engine', 'state']);
    assert.equal(state.code, 0, state.stderr);
    assert.match(state.stdout, /NOT_RUNNING/);
  });

  test('an expired access token is refreshed with the refresh token and the new pair is stored', async () => {
    const file = path.join(homeA, 'weir', 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as {
      tokens: { access_token: string; refresh_token: string };
    };
    config.tokens.access_token = 'expired.invalid.token';
    writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
    const r = await cli(['get', 'rules', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), []);
    const after = JSON.parse(readFileSync(file, 'utf8')) as { tokens: { access_token: string } };
    assert.notEqual(after.tokens.access_token, 'expired.invalid.token');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(
      (await a.call('GET', '/api/rules', { token: after.tokens.access_token })).status,
      200,
      'the stored token is valid',
    );
  });

  test('apply -f folder: JSON and YAML, several kinds per file, idempotent, --dry-run shows a diff', async () => {
    const conf = path.join(dir, 'conf');
    mkdirSync(path.join(conf, 'detect'), { recursive: true });
    writeFileSync(
      path.join(conf, 'topics.yaml'),
      [
        `kind: Topic\nspec:\n  name: ${topic}\n  numberOfPartitions: 1\n  replicationFactor: 1\n`,
        `kind: Topic\nspec:\n  name: ${topic}-alerts\n  numberOfPartitions: 1\n  replicationFactor: 1\n  options:\n    retention.ms: 86400000\n`,
        'kind: Lookup\nspec:\n  id: admins\n  content:\n    - user: root\n    - user: ada\n',
      ].join('---\n'),
    );
    writeFileSync(
      path.join(conf, 'detect', 'rules.yml'),
      [
        'kind: Rule\nspec:\n  id: root-login\n  name: Root login\n  description: ""\n  pdl: user="root" AND action="login"\n  annotations: [T1078]\n  enabled: true\n',
        'kind: Rule\nspec:\n  id: any-login\n  name: Any login\n  description: ""\n  pdl: action="login"\n  annotations: []\n  enabled: true\n',
      ].join('---\n'),
    );
    writeFileSync(
      path.join(conf, 'detect', 'processing.json'),
      JSON.stringify([
        { kind: 'Task', spec: { id: 1, name: 'kv', description: '', function: 'PARSE_KV', definition: {} } },
        {
          kind: 'Task',
          spec: {
            id: 2,
            name: 'detect',
            description: '',
            function: 'APPLY_RULES',
            definition: { rules: ['root-login', 'any-login'] },
          },
        },
        { kind: 'Pipeline', spec: { id: 1, name: 'parse-detect', description: '', tasks: [1, 2] } },
        // the server fills in the endpoints' serdes: not a difference on the next apply
        {
          kind: 'Topology',
          spec: {
            id: 1,
            name: 'logins',
            description: '',
            pipelines: [1],
            enabled: false,
            group: 'default',
            input: { name: topic },
            output: [{ name: `${topic}-alerts` }],
          },
        },
      ]),
    );
    writeFileSync(path.join(conf, 'README.txt'), 'not a manifest: skipped in folders');

    const first = await cli(['apply', '-f', conf]);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(first.stdout.trim().split('\n'), [
      `topic/${topic} created`,
      `topic/${topic}-alerts created`,
      'lookup/admins created',
      'rule/root-login created',
      'rule/any-login created',
      'task/1 created',
      'task/2 created',
      'pipeline/1 created',
      'topology/1 created',
    ]);
    assert.match(first.stderr, /9 created, 0 configured, 0 unchanged, 0 failed/);
    // what the node holds, read without weirctl
    assert.equal(
      ((await a.call('GET', '/api/rules/root-login', { token: admin })).body as { pdl: string }).pdl,
      'user="root" AND action="login"',
    );
    assert.deepEqual(
      ((await a.call('GET', '/api/pipelines/1', { token: admin })).body as { tasks: number[] }).tasks,
      [1, 2],
    );
    assert.deepEqual(
      ((await a.call('GET', '/api/lookups/admins', { token: admin })).body as { content: unknown[] }).content,
      [{ user: 'root' }, { user: 'ada' }],
    );
    assert.equal((await a.call('GET', `/api/topics/${topic}`, { token: admin })).status, 200);
    assert.equal(
      (
        (await a.call('GET', `/api/topics/${topic}-alerts`, { token: admin })).body as {
          options: Record<string, string>;
        }
      ).options['retention.ms'],
      '86400000',
    );
    assert.deepEqual(
      ((await a.call('GET', '/api/topologies/1', { token: admin })).body as { output: { name: string }[] }).output.map(
        (o) => o.name,
      ),
      [`${topic}-alerts`],
    );

    const again = await cli(['apply', '-f', conf]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /0 created, 0 configured, 9 unchanged, 0 failed/);

    writeFileSync(
      path.join(conf, 'detect', 'rules.yml'),
      readFileSync(path.join(conf, 'detect', 'rules.yml'), 'utf8').replace(
        'annotations: [T1078]',
        'annotations: [T1078, T1110]',
      ),
    );
    const dry = await cli(['apply', '-f', conf, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.ok(
      dry.stdout.includes(
        'rule/root-login configured (dry run)\n  …\n  pdl: user="root" AND action="login"\n  annotations:\n    - T1078\n+   - T1110\n  enabled: true\nrule/any-login unchanged (dry run)\n',
      ),
      dry.stdout,
    );
    assert.deepEqual(
      ((await a.call('GET', '/api/rules/root-login', { token: admin })).body as { annotations: string[] }).annotations,
      ['T1078'],
      'a dry run writes nothing',
    );
    const update = await cli(['apply', '-f', path.join(conf, 'detect', 'rules.yml')]);
    assert.equal(update.code, 0, update.stderr);
    assert.match(update.stdout, /rule\/root-login configured\nrule\/any-login unchanged/);
    assert.deepEqual(
      ((await a.call('GET', '/api/rules/root-login', { token: admin })).body as { annotations: string[] }).annotations,
      ['T1078', 'T1110'],
    );

    const bad = path.join(dir, 'bad.yaml');
    writeFileSync(bad, 'kind: Rule\nspec:\n  name: no id\n');
    const refused = await cli(['apply', '-f', bad]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /bad\.yaml: Rule spec\.id must be a non-empty string/);
    writeFileSync(
      bad,
      'kind: Rule\nspec:\n  id: broken\n  name: Broken\n  description: ""\n  pdl: user =\n  annotations: []\n  enabled: true\n',
    );
    const invalid = await cli(['apply', '-f', bad]);
    assert.equal(invalid.code, 1);
    assert.match(
      invalid.stderr,
      /error: rule\/broken \(.*bad\.yaml\): .+: .+\(HTTP 400\)/,
      'the API message and debugMessage',
    );
  });

  test('get and describe: table, json and yaml; a missing record prints the API error and exits 1', async () => {
    const t = await cli(['get', 'rules']);
    assert.equal(t.code, 0, t.stderr);
    const [header, ...rows] = t.stdout.trim().split('\n');
    assert.match(header!, /^ID\s+NAME\s+ENABLED\s+ANNOTATIONS\s+PDL$/);
    assert.deepEqual(rows.map((r) => r.split(/\s{2,}/)[0]).sort(), ['any-login', 'root-login']);
    const json = await cli(['get', 'rules', '-o', 'json']);
    assert.deepEqual(
      json.stdout && JSON.parse(json.stdout),
      (await a.call('GET', '/api/rules', { token: admin })).body,
    );
    const yaml = await cli(['get', 'task', '2', '-o', 'yaml']);
    assert.match(yaml.stdout, /function: APPLY_RULES/);
    const desc = await cli(['describe', 'pipeline', '1']);
    assert.match(
      desc.stdout,
      /name: parse-detect\ndescription: ""\ntasks:\n {2}- 1\n {2}- 2\n# tasks: 1 kv \(PARSE_KV\), 2 detect \(APPLY_RULES\)\n$/,
    );
    assert.match((await cli(['describe', 'rule', 'root-login'])).stdout, /\n# used by tasks: 2 detect\n$/);
    assert.match((await cli(['describe', 'task', '1'])).stdout, /\n# used by pipelines: 1 parse-detect\n$/);
    const missing = await cli(['get', 'rule', 'nope']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^error: Resource not found: Requested rule does not exist \(HTTP 404\)$/m);
    assert.equal((await cli(['get', 'task', 'x'])).code, 2);
    const nodes = await cli(['nodes']);
    assert.match(nodes.stdout, /^UUID\s+HOST\s+REST\s+GROUP\n/);
    assert.ok(nodes.stdout.includes(a.url.replace(/\/$/, '')) || nodes.stdout.split('\n').length >= 2);
  });

  test("apply: a record the server refuses prints the server's violations, one field path and message per line", async () => {
    const task = {
      id: 90,
      name: 'refused',
      function: 'EVAL',
      definition: { eval: [{ action: 'explode', field: 'x' }], extra: 1 },
    };
    const file = path.join(dir, 'refused.json');
    writeFileSync(file, JSON.stringify([{ kind: 'Task', spec: task }]));
    const run = await cli(['apply', '-f', file]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    // what the server answers for the same record
    const server = await a.call('POST', '/api/tasks', { token: admin, body: task });
    assert.equal(server.status, 400);
    const body = server.body as { message: string; debugMessage: string; errors: string[] };
    assert.deepEqual(body.errors, [
      'definition.extra: is not an accepted field; accepted: eval',
      'definition.eval[0].action: must be one of rename, set, remove',
    ]);
    const [first, ...rest] = run.stderr.trimEnd().split('\n');
    assert.match(
      first!,
      /^error: task\/90 \(.*refused\.json.*\): Resource validation failed: Invalid task: .* \(HTTP 400\)$/,
    );
    assert.ok(first!.includes(body.debugMessage), first);
    assert.deepEqual(rest, [...body.errors.map((e) => `  ${e}`), '0 created, 0 configured, 0 unchanged, 1 failed']);
  });

  test('test rule|pdl|task|pipeline over NDJSON and JSON-array events', async () => {
    writeFileSync(
      path.join(dir, 'events.ndjson'),
      '{"user":"root","action":"login"}\n\n{"user":"ada","action":"logout"}\n',
    );
    writeFileSync(path.join(dir, 'events.json'), JSON.stringify([{ user: 'root' }, { user: 'ada' }]));
    writeFileSync(path.join(dir, 'raw.log'), 'user=root action=login\nuser=ada action=login\n');
    const rule = await cli(['test', 'rule', 'root-login', '-f', 'events.ndjson']);
    assert.equal(rule.code, 0, rule.stderr);
    assert.deepEqual(
      lines(rule.stdout).map((l) => [l.index, l.matched]),
      [
        [0, true],
        [1, false],
      ],
    );
    assert.match(rule.stderr, /2 events, 1 matched/);
    const pdl = await cli(['test', 'pdl', 'user="ada"', '-f', 'events.json']);
    assert.deepEqual(
      lines(pdl.stdout).map((l) => l.matched),
      [false, true],
    );
    const task = await cli(['test', 'task', '1', '-f', 'raw.log', '--raw']);
    assert.equal(task.code, 0, task.stderr);
    assert.deepEqual(
      lines(task.stdout).map((l) => (l.result as Record<string, unknown>).user),
      ['root', 'ada'],
    );
    const pipeline = await cli(['test', 'pipeline', '1', '-f', 'raw.log', '--raw']);
    const results = lines(pipeline.stdout).map((l) => l.result);
    assert.equal(results.length, 2);
    assert.ok(Array.isArray(results[0]) || (results[0] as { _rule?: unknown })._rule, 'the root login gives alerts');
    writeFileSync(path.join(dir, 'broken.ndjson'), '{"user":"root"}\n{user:\n');
    const broken = await cli(['test', 'rule', 'root-login', '-f', 'broken.ndjson']);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /broken\.ndjson:2: not JSON/);
  });

  test('sigma import: a dry run converts without storing, an import stores the rule, an unconvertible document exits 1 with its reason', async () => {
    const sigmaDir = path.join(dir, 'sigma');
    mkdirSync(sigmaDir, { recursive: true });
    writeFileSync(
      path.join(sigmaDir, 'whoami.yml'),
      [
        'title: Whoami run',
        'id: 5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11',
        'status: test',
        'logsource: { product: windows, category: process_creation }',
        'detection:',
        '  selection:',
        '    Image|endswith: \\whoami.exe',
        '  condition: selection',
        'level: low',
        'tags: [attack.discovery, attack.t1033]',
        '',
      ].join('\n'),
    );
    const dry = await cli(['sigma', 'import', sigmaDir, '--dry-run', '-o', 'json']);
    assert.equal(dry.code, 0, dry.stderr);
    const [report] = JSON.parse(dry.stdout) as { results: { status: string; id?: string }[] }[];
    assert.equal(report!.results[0]!.status, 'converted');
    const ruleId = report!.results[0]!.id!;
    assert.equal((await cli(['get', 'rules', ruleId])).code, 1, 'a dry run stores nothing');
    const real = await cli(['sigma', 'import', sigmaDir]);
    assert.equal(real.code, 0, real.stderr);
    assert.match(real.stdout, /converted/);
    const stored = await cli(['get', 'rules', ruleId, '-o', 'json']);
    assert.equal(stored.code, 0, stored.stderr);
    const rule = JSON.parse(stored.stdout) as { annotations: string[]; pdl: string };
    assert.ok(rule.annotations.includes('T1033'), rule.annotations.join(','));
    writeFileSync(path.join(sigmaDir, 'broken.yml'), 'title: No detection\nlogsource: { product: windows }\n');
    const broken = await cli(['sigma', 'import', path.join(sigmaDir, 'broken.yml')]);
    assert.equal(broken.code, 1);
    assert.match(broken.stdout + broken.stderr, /detection/);
  });

  test('produce and consume: JSON lines in and out, follow mode; kcat sees the records', async () => {
    const events = '{"user":"root","n":1}\n{"user":"ada","n":2}\n{"user":"bob","n":3}\n';
    const produced = await cli(['produce', topic, '--key-field', 'user'], events);
    assert.equal(produced.code, 0, produced.stderr);
    assert.match(produced.stderr, /3 messages produced/);
    const seen = execFileSync(
      'kcat',
      ['-C', '-b', testBootstrap(), '-t', topic, '-o', 'beginning', '-c', '3', '-e', '-f', '%k|%s\n'],
      { encoding: 'utf8' },
    );
    assert.deepEqual(seen.trim().split('\n'), [
      'root|{"user":"root","n":1}',
      'ada|{"user":"ada","n":2}',
      'bob|{"user":"bob","n":3}',
    ]);

    const consumed = await cli(['consume', topic, '--max', '3']);
    assert.equal(consumed.code, 0, consumed.stderr);
    const messages = lines(consumed.stdout);
    assert.deepEqual(
      messages.map((m) => [m.key, m.value, m.offset]),
      [
        ['root', '{"user":"root","n":1}', 0],
        ['ada', '{"user":"ada","n":2}', 1],
        ['bob', '{"user":"bob","n":3}', 2],
      ],
    );
    const values = await cli(['consume', topic, '--max', '3', '--values']);
    assert.deepEqual(
      lines(values.stdout).map((v) => v.n),
      [1, 2, 3],
    );

    // follow: starts at the beginning, keeps reading what is produced after, stops after --max
    const follow = spawn(process.execPath, [bin, 'consume', topic, '-f', '--from', 'earliest', '--max', '5'], {
      env: { ...process.env, XDG_CONFIG_HOME: homeA },
    });
    let out = '';
    let err = '';
    follow.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    follow.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const exited = new Promise<number>((resolve) => follow.on('close', (c) => resolve(c ?? -1)));
    while (out.split('\n').length < 4) await new Promise((r) => setTimeout(r, 100));
    const more = await cli(['produce', topic], '{"n":4}\n{"n":5}\n');
    assert.equal(more.code, 0, more.stderr);
    assert.equal(await exited, 0, err);
    assert.deepEqual(
      lines(out).map((m) => JSON.parse(m.value as string).n),
      [1, 2, 3, 4, 5],
    );
  });

  test('produce --offsets prints where each message went (kcat agrees); consume -e stops at the end', async () => {
    const produced = await cli(['produce', topic, '--offsets'], '{"n":6}\n{"n":7}\n');
    assert.equal(produced.code, 0, produced.stderr);
    assert.deepEqual(lines(produced.stdout), [
      { partition: 0, offset: 5 },
      { partition: 0, offset: 6 },
    ]);
    const seen = execFileSync(
      'kcat',
      ['-C', '-b', testBootstrap(), '-t', topic, '-p', '0', '-o', '5', '-c', '2', '-e', '-f', '%o|%s\n'],
      { encoding: 'utf8' },
    );
    assert.deepEqual(seen.trim().split('\n'), ['5|{"n":6}', '6|{"n":7}']);

    // -e: the session completes at the end offsets it found, long before its 300 s timeout
    const started = Date.now();
    const consumed = await cli(['consume', topic, '-e', '--timeout', '300', '--values']);
    assert.equal(consumed.code, 0, consumed.stderr);
    assert.deepEqual(
      lines(consumed.stdout).map((v) => v.n),
      [1, 2, 3, 4, 5, 6, 7],
    );
    assert.ok(Date.now() - started < 120_000, 'consume -e did not wait for its timeout');
    const both = await cli(['consume', topic, '-e', '-f']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /give -f \(follow\) or -e \(stop at the end\), not both/);
  });

  test('silence create, list, expire: the node stores what the command said; bad matchers and durations exit 2', async () => {
    const created = await cli([
      'silence',
      'create',
      '--match',
      '_rule.id=failed-login',
      '--match',
      'host.name=~web-[0-9]+',
      '--for',
      '2h',
      '--comment',
      'maintenance, change 4711',
      '-o',
      'json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const [silence] = JSON.parse(created.stdout) as { id: string; startsAt: string; endsAt: string }[];
    const stored = await a.call('GET', `/api/silences/${silence!.id}`, { token: admin });
    assert.equal(stored.status, 200);
    const body = stored.body as { matchers: unknown; comment: string; state: string; createdBy: string };
    assert.deepEqual(
      [body.matchers, body.comment, body.state, body.createdBy],
      [
        [
          { field: '_rule.id', op: '=', value: 'failed-login' },
          { field: 'host.name', op: '=~', value: 'web-[0-9]+' },
        ],
        'maintenance, change 4711',
        'active',
        'admin',
      ],
    );
    assert.equal(Date.parse(silence!.endsAt) - Date.parse(silence!.startsAt), 7_200_000);

    const listed = await cli(['silence', 'list', '--state', 'active']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^ID +STATE +MATCHERS/);
    assert.match(
      listed.stdout,
      new RegExp(`${silence!.id} +active +_rule\\.id="failed-login", host\\.name=~"web-\\[0-9\\]\\+"`),
    );

    const expired = await cli(['silence', 'expire', silence!.id, '-o', 'json']);
    assert.equal(expired.code, 0, expired.stderr);
    assert.equal((JSON.parse(expired.stdout) as { state: string }[])[0]!.state, 'expired');
    const active = await cli(['silence', 'list', '--state', 'active', '-o', 'json']);
    assert.ok(!(JSON.parse(active.stdout) as { id: string }[]).some((s) => s.id === silence!.id));
    // refused by the server: a regular expression that does not compile (exit 1 with its message)
    const badRegex = await cli(['silence', 'create', '--match', 'user=~(', '--for', '1h', '--comment', 'x']);
    assert.equal(badRegex.code, 1);
    assert.match(badRegex.stderr, /matchers\.0\.value/);

    for (const args of [
      ['silence', 'create', '--match', 'no-operator', '--for', '1h', '--comment', 'x'],
      ['silence', 'create', '--match', 'a=b', '--for', '2 hours', '--comment', 'x'],
      ['silence', 'create', '--match', 'a=b', '--comment', 'x'],
      ['silence', 'create', '--match', 'a=b', '--for', '1h'],
      ['silence', 'mute'],
    ]) {
      const r = await cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    }
  });

  test('consumer groups: get, describe, reset-offsets (kafka-consumer-groups sees the reset), delete', async () => {
    const groupTopic = `cli-group-${suffix}`;
    const group = `cli-readers-${suffix}`;
    const kafka = new Admin({ clientId: 'weirctl-test', bootstrapBrokers: [testBootstrap()] });
    try {
      await kafka.createTopics({ topics: [groupTopic], partitions: 1, replicas: 1 });
      const produced = await cli(['produce', groupTopic], '{"n":1}\n{"n":2}\n{"n":3}\n');
      assert.equal(produced.code, 0, produced.stderr);
      await kafka.alterConsumerGroupOffsets({
        groupId: group,
        topics: [{ name: groupTopic, partitionOffsets: [{ partition: 0, offset: 1n }] }],
      });
    } finally {
      await kafka.close();
    }
    const list = await cli(['get', 'groups', '-o', 'json']);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { id: string }[]).find((g) => g.id === group),
      { id: group, state: 'Empty', members: 0, lag: 2, topologies: [] },
    );
    const described = await cli(['describe', 'group', group, '-o', 'json']);
    assert.equal(described.code, 0, described.stderr);
    assert.deepEqual((JSON.parse(described.stdout) as { partitions: unknown[] }).partitions, [
      { topic: groupTopic, partition: 0, committedOffset: 1, endOffset: 3, lag: 2, member: null },
    ]);
    const reset = await cli(['reset-offsets', group, '--to', 'latest']);
    assert.equal(reset.code, 0, reset.stderr);
    assert.deepEqual(
      reset.stdout
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/)),
      [
        ['TOPIC', 'PARTITION', 'OFFSET'],
        [groupTopic, '0', '3'],
      ],
    );
    assert.deepEqual(
      (await kafkaConsumerGroupsDescribe(group)).map((r) => [r.currentOffset, r.lag]),
      [[3, 0]],
    );
    const bad = await cli(['reset-offsets', group, '--to', 'yesterday']);
    assert.deepEqual(
      [bad.code, bad.stderr],
      [
        2,
        "error: reset-offsets: --to must be one of earliest, latest, timestamp, offset, found 'yesterday'\nRun weirctl help for usage.\n",
      ],
    );
    const deleted = await cli(['delete', 'group', group]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const gone = await cli(['describe', 'group', group]);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /Requested consumer group does not exist/);
  });

  test('export, then import into a fresh node gives the same configuration; delete', async () => {
    const backup = path.join(dir, 'backup.yaml');
    const exported = await cli(['export', '-f', backup]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(statSync(backup).mode & 0o777, 0o600, 'a backup is private');
    const text = readFileSync(backup, 'utf8');
    assert.match(text, /kind: Rule/);
    assert.match(text, new RegExp(`name: ${topic}`));
    assert.match(text, /kind: Topology/);
    assert.match(text, /retention\.ms: "86400000"/);

    b = await startTestNode({ 'weir.engine.autostart': 'false' });
    const bAdmin = await b.initAdmin();
    // the topic exists on the shared broker already: the restore sees it unchanged
    const login = await weirctl(['login', '--server', b.url, '-u', 'admin', '--password-stdin', '--insecure'], {
      configHome: homeB,
      input: 'admin-pw',
    });
    assert.equal(login.code, 0, login.stderr);
    const imported = await weirctl(['import', '-f', backup], { configHome: homeB });
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stderr, /0 failed/);
    for (const p of ['/api/rules', '/api/tasks', '/api/pipelines', '/api/topologies', '/api/lookups']) {
      const byId = (body: unknown) =>
        [...(body as { id: string | number }[])].sort((x, y) => String(x.id).localeCompare(String(y.id)));
      assert.deepEqual(
        byId((await b.call('GET', p, { token: bAdmin })).body),
        byId((await a.call('GET', p, { token: admin })).body),
        p,
      );
    }
    const again = await weirctl(['export', '-o', 'json'], { configHome: homeB });
    const fromA = await cli(['export', '-o', 'json']);
    // an export holds every topic of the broker, which other test files share and add to while this
    // one runs: compare this test's own topic and the configuration
    type Doc = { kind: string; spec: { name?: string } };
    const ours = (json: string) =>
      (JSON.parse(json) as Doc[]).filter((d) => d.kind !== 'Topic' || d.spec.name === topic);
    assert.deepEqual(ours(again.stdout), ours(fromA.stdout));

    const del = await cli(['delete', 'rule', 'any-login']);
    assert.equal(del.code, 0, del.stderr);
    assert.equal((await a.call('GET', '/api/rules/any-login', { token: admin })).status, 404);
    assert.equal((await cli(['delete', 'rule', 'any-login'])).code, 1);
  });

  test('diagnose lists dangling references and exits 1; test task warns about the skipped rule', async () => {
    // the test above deleted any-login, which task 2 (detect) still lists: the API accepts that
    const found = await cli(['diagnose']);
    assert.equal(found.code, 1, found.stderr);
    assert.deepEqual(found.stdout.trim().split('\n'), [
      'FROM           FIELD                MISSING',
      'task/2 detect  definition.rules[1]  rule/any-login',
    ]);
    assert.equal(found.stderr, '1 dangling reference(s)\n');
    const json = await cli(['diagnose', '-o', 'json']);
    assert.equal(
      JSON.parse(json.stdout).references[0].message,
      'task 2 (detect) applies rule `any-login`, which does not exist',
    );
    const task = await cli(['test', 'task', '2', '-f', 'events.ndjson']);
    assert.equal(task.code, 0, task.stderr);
    assert.equal(task.stderr, 'warning: rule `any-login` does not exist\n2 events, 1 with a result\n');
    const restored = await cli(['apply', '-f', path.join(dir, 'conf', 'detect', 'rules.yml')]);
    assert.equal(restored.code, 0, restored.stderr);
    const none = await cli(['diagnose']);
    assert.deepEqual([none.code, none.stdout, none.stderr], [0, '', 'no dangling references\n']);
  });

  test('engine stop and start', async () => {
    const start = await cli(['engine', 'start']);
    assert.equal(start.code, 0, start.stderr);
    const stop = await cli(['engine', 'stop', '-o', 'json']);
    assert.equal(stop.code, 0, stop.stderr);
    assert.deepEqual(JSON.parse(stop.stdout), { states: ['NOT_RUNNING'] });
  });
});
