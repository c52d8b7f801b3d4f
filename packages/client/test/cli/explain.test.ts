import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { explain } from '@weir/pdl';
import { explanationText } from '../../src/cli/explain.ts';
import { weirctl } from '../helpers/weirctl.ts';

/** `weirctl explain` as a user runs it (bin/weirctl.js, a child process) on a rule file, no server. */
const example = path.resolve(import.meta.dirname, '../../../../docs/examples/rule-repository');
const doc = readFileSync(path.resolve(example, '../../detection-as-code.md'), 'utf8');
const dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-explain-'));
const configHome = path.join(dir, 'config');
after(() => rmSync(dir, { recursive: true, force: true }));

function block(marker: string): string {
  const at = doc.indexOf(marker);
  assert.ok(at >= 0, `docs/detection-as-code.md has ${marker}`);
  return /```[a-z]*\n([\s\S]*?)```/.exec(doc.slice(at))![1]!;
}

test('the documented example: the tree the document shows, exit 1 (no match)', async () => {
  const r = await weirctl(['explain', '--rule', 'rules/root-login.pdl', '--event', 'tests/bob-login.json'], {
    configHome,
    cwd: example,
  });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr, '');
  assert.equal(
    `$ weirctl explain --rule rules/root-login.pdl --event tests/bob-login.json\n${r.stdout}`,
    block('<!-- explain output -->'),
  );
});

test('a match from stdin: exit 0; --ascii; -o json is the explanation itself', async () => {
  const event = '{"user": "root", "action": "login"}';
  const r = await weirctl(['explain', '--rule', 'rules/root-login.pdl', '--event', '-', '--ascii'], {
    configHome,
    cwd: example,
    input: event,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      'event 0: + match (1 output(s))',
      '  stage 0 (query):',
      '    + user = "root" AND action = "login"',
      '      + user = "root"    (user = "root")',
      '      + action = "login"    (action = "login")',
      'matched: yes (1 output(s))',
      '',
    ].join('\n'),
  );
  const j = await weirctl(['explain', '--rule', 'rules/root-login.pdl', '--event', '-', '-o', 'json'], {
    configHome,
    cwd: example,
    input: event,
  });
  assert.equal(j.code, 0, j.stderr);
  assert.deepEqual(
    JSON.parse(j.stdout),
    JSON.parse(JSON.stringify(explain('user="root" AND action="login"', JSON.parse(event)))),
  );
});

test('a correlation over a sample: per event the group, window, state; the emission', () => {
  const text = explanationText(
    explain('event_count timespan=1m group_by user where _aggregation.value >= 2', [
      { user: 'bob', _time: 0 },
      { user: 'bob', _time: 1000 },
    ]),
  );
  assert.equal(
    text,
    [
      'event 0: ✗ no match, stopped at stage 0',
      '  stage 0: ✗ event_count timespan=1m group_by user where _aggregation.value >= 2',
      '    group: user="bob"',
      '    window: 1969-12-31T23:59:00.000Z .. 1970-01-01T00:00:00.000Z',
      '    state: function="event_count" eventCount=1 value=1',
      '    counted in the window; did not fire',
      'event 1: ✓ match (1 output(s))',
      '  stage 0: ✓ event_count timespan=1m group_by user where _aggregation.value >= 2',
      '    group: user="bob"',
      '    window: 1969-12-31T23:59:01.000Z .. 1970-01-01T00:00:01.000Z',
      '    state: function="event_count" eventCount=2 value=2',
      '    counted in the window; fired',
      'emitted by stage 0 at event 1: group user="bob", window 1969-12-31T23:59:01.000Z .. 1970-01-01T00:00:01.000Z, function="event_count" eventCount=2 value=2 -> output',
      'matched: yes (1 output(s))',
      '',
    ].join('\n'),
  );
});

test('bad input exits 2 naming what: no --rule, a PDL syntax error with its line and column, an unreadable event file', async () => {
  const bad = path.join(dir, 'bad.pdl');
  writeFileSync(bad, 'user = ');
  const cases: [string[], RegExp][] = [
    [['explain', '--event', '-'], /explain: give --rule <id\|file\.pdl>/],
    [['explain', '--rule', bad, '--event', '-'], /bad\.pdl: line 1, column 8: expected a value after '='/],
    [['explain', '--rule', bad, '--event', path.join(dir, 'none.json')], /cannot read .*none\.json/],
  ];
  for (const [args, message] of cases) {
    const r = await weirctl(args, { configHome, input: '{}' });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});
