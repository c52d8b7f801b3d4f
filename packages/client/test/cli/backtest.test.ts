import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { weirctl } from '../helpers/weirctl.ts';

/**
 * `weirctl backtest` as a user runs it (bin/weirctl.js, a child process, no server): over the example
 * rule repository of docs/detection-as-code.md ("Backtests in CI": a PDL file, a Rule manifest with a
 * correlation, a Sigma rule), its output as that document shows it, the exit codes, and bad input.
 */
const example = path.resolve(import.meta.dirname, '../../../../docs/examples/rule-repository');
const doc = readFileSync(path.resolve(example, '../../detection-as-code.md'), 'utf8');
const dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-backtest-'));
const configHome = path.join(dir, 'config');
after(() => rmSync(dir, { recursive: true, force: true }));

/** The text of the fenced block that follows `marker` in the document. */
function block(marker: string): string {
  const at = doc.indexOf(marker);
  assert.ok(at >= 0, `docs/detection-as-code.md has ${marker}`);
  const match = /```[a-z]*\n([\s\S]*?)```/.exec(doc.slice(at));
  return match![1]!;
}

test('the documented example: the table and the JUnit file the document shows, exit 0', async () => {
  const junit = path.join(dir, 'backtest.xml');
  const r = await weirctl(
    [
      'backtest',
      '--rules',
      'rules',
      '--events',
      'tests/logins.ndjson',
      '--expect',
      'tests/logins.expect.yml',
      '--junit',
      junit,
    ],
    { configHome, cwd: example },
  );
  assert.equal(r.code, 0, r.stderr);
  const shown = block('<!-- backtest output -->');
  assert.equal(
    `$ weirctl backtest --rules rules --events tests/logins.ndjson --expect tests/logins.expect.yml --junit backtest.xml\n${r.stdout}`,
    shown,
  );
  assert.match(
    r.stderr,
    /^8 event\(s\), 3 rule\(s\), \d+\.\d\d s \([\d,]+ events\/s\)\n0 of 4 expectation\(s\) failed\n$/,
  );
  assert.equal(readFileSync(junit, 'utf8'), block('<!-- backtest junit -->'));
});

test('a failed expectation: exit 1, FAILED rows with expected and actual, the JUnit XML on stdout with -o junit', async () => {
  const expect = path.join(dir, 'strict.yml');
  writeFileSync(expect, 'othersMayFire: false\nrules:\n  root-login: { exactly: 1 }\n  brute-force: { atMost: 0 }\n');
  const args = ['backtest', '--rules', 'rules', '--events', 'tests/logins.ndjson', '--expect', expect];
  const r = await weirctl(args, { configHome, cwd: example });
  assert.equal(r.code, 1);
  assert.ok(
    r.stdout.endsWith(
      'EXPECTATION                                 RESULT  DETAIL\n' +
        `rule root-login: exactly 1                  FAILED  expected exactly 1 match(es), found 2 (${expect}:3:3)\n` +
        `rule brute-force: at most 0                 FAILED  expected at most 0 match(es), found 1 (${expect}:4:3)\n` +
        'no other rule fires (othersMayFire: false)  FAILED  rules without an expectation matched: sigma-5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11 (1)\n',
    ),
    r.stdout,
  );
  assert.match(r.stderr, /3 of 3 expectation\(s\) failed\n$/);
  const xml = await weirctl([...args, '-o', 'junit'], { configHome, cwd: example });
  assert.equal(xml.code, 1);
  assert.match(
    xml.stdout,
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="weirctl backtest" tests="3" failures="3" errors="0">/,
  );
  assert.match(
    xml.stdout,
    /<failure message="rules without an expectation matched: sigma-5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11 \(1\)" type="expectation">/,
  );
});

test('-o json: every rule with its matches and first positions; a JSON array file gives indexes; a window closed by the end of the file says end', async () => {
  const rules = path.join(dir, 'json-rules');
  cpSync(path.join(example, 'rules'), rules, { recursive: true });
  writeFileSync(
    path.join(rules, 'quiet.pdl'),
    'action="login" | event_count timespan=10m group_by user emit=close where _aggregation.value = 2\n',
  );
  const events = path.join(dir, 'events.json');
  const lines = readFileSync(path.join(example, 'tests/logins.ndjson'), 'utf8').trim().split('\n');
  writeFileSync(events, `[${lines.join(',\n')}]`);
  const r = await weirctl(['backtest', '--rules', rules, '--events', events, '-o', 'json', '--first', '1'], {
    configHome,
    cwd: dir,
  });
  assert.equal(r.code, 0, r.stderr);
  const rule = (id: string, where: string, source: string, matches: number, first: unknown[]) => ({
    id,
    where: path.join(rules, where),
    source,
    enabled: true,
    matches,
    first,
    evaluationErrors: 0,
    lateEvents: 0,
  });
  assert.deepEqual(JSON.parse(r.stdout), {
    events: 8,
    rules: [
      rule('brute-force', 'brute-force.yaml', 'manifest', 1, [{ index: 4 }]),
      // alice's two logins and root's two, in windows the end of the file closes
      rule('quiet', 'quiet.pdl', 'pdl', 2, [{ end: true }]),
      rule('root-login', 'root-login.pdl', 'pdl', 2, [{ index: 0 }]),
      rule('sigma-5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11', 'sigma/whoami.yml#0', 'sigma', 1, [{ index: 5 }]),
    ],
  });
});

test('bad input: exit 2 with an error naming the file and where in it', async () => {
  const bad = path.join(dir, 'bad');
  cpSync(path.join(example, 'rules'), path.join(bad, 'rules'), { recursive: true });
  writeFileSync(path.join(bad, 'typo.yml'), 'rules:\n  root-login: 2\n  brute-forse: { atLeast: 1 }\n');
  writeFileSync(path.join(bad, 'events.ndjson'), '{"user": "root"}\n\n{"user": "root", action: "login"}\n');
  const run = (args: string[]) => weirctl(['backtest', ...args], { configHome, cwd: bad });
  const usage = 'Run weirctl help for usage.\n';

  let r = await run([
    '--rules',
    'rules',
    '--events',
    path.join(example, 'tests/logins.ndjson'),
    '--expect',
    'typo.yml',
  ]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    `error: typo.yml:3:3: unknown rule 'brute-forse': no rule of --rules has this id (3 rule(s): brute-force, root-login, sigma-5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11)\n${usage}`,
  );

  r = await run(['--rules', 'rules', '--events', 'events.ndjson']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^error: events\.ndjson:3: not JSON \(.+\); give NDJSON or a JSON array\n/);

  writeFileSync(path.join(bad, 'rules/broken.pdl'), 'user="root"\n  AND action=>"x"\n');
  r = await run(['--rules', 'rules', '--events', 'events.ndjson']);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `error: rules/broken.pdl:2:14: rule 'broken' does not compile: expected a value after '=', found '>'\n  AND action=>"x"\n             ^\n${usage}`,
  );

  r = await run(['--rules', 'nowhere', '--events', 'events.ndjson']);
  assert.equal(r.stderr, `error: --rules nowhere: no such file or folder\n${usage}`);

  r = await run(['--rules', 'rules', '--events', 'events.ndjson', '--server', 'https://localhost:8999']);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `error: backtest --server: give --topic TOPIC with --from TIME --to TIME or --offsets PARTITION:START-END (a backtest through a server reads a topic range)\n${usage}`,
  );
  r = await run(['--rules', 'rules', '--events', 'events.ndjson', '--topic', 'logins']);
  assert.equal(
    r.stderr,
    `error: backtest: give --events FILE (run here) or --topic TOPIC (through the server), not both\n${usage}`,
  );
  r = await run(['--rules', 'rules', '--events', 'events.ndjson', '--from', '0']);
  assert.equal(r.stderr, `error: backtest: --from goes with --topic TOPIC (a backtest through the server)\n${usage}`);
  r = await run(['--rules', 'rules', '--topic', 'logins', '--from', '0']);
  assert.equal(
    r.stderr,
    `error: backtest --topic logins: give the range: --from TIME --to TIME (ISO 8601 or epoch ms) or --offsets PARTITION:START-END\n${usage}`,
  );

  r = await run(['--rules', 'rules', '--events', 'events.ndjson', '-o', 'xml']);
  assert.equal(r.stderr, `error: -o xml: the output is one of table, json, yaml, junit\n${usage}`);
});
