import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { intFlag, parseCommandLine } from '../../src/cli/args.ts';
import { UsageError } from '../../src/cli/errors.ts';

describe('weirctl argument parsing', () => {
  test('the command, its positionals and flags anywhere after it; global flags on every command', () => {
    const p = parseCommandLine(['get', 'rules', '-o', 'yaml', '--server', 'https://h:8999', '--insecure']);
    assert.equal(p.command, 'get');
    assert.deepEqual(p.positionals, ['rules']);
    assert.equal(p.output, 'yaml');
    assert.equal(p.values.server, 'https://h:8999');
    assert.equal(p.values.insecure, true);
    const a = parseCommandLine(['apply', '-f', 'a.yaml', '-f', 'dir', '--dry-run']);
    assert.deepEqual(a.values.filename, ['a.yaml', 'dir']);
    assert.equal(a.values['dry-run'], true);
    const r = parseCommandLine(['rollback', 'rule', 'shell', '2', '--note', 'back to v2']);
    assert.deepEqual([r.positionals, r.values.note], [['rule', 'shell', '2'], 'back to v2']);
    assert.deepEqual(parseCommandLine(['history', 'task', '3', '2', '-o', 'json']).positionals, ['task', '3', '2']);
  });

  test('-f is the file for apply and test, and follow for consume', () => {
    assert.equal(parseCommandLine(['test', 'rule', 'r1', '-f', 'e.ndjson']).values.filename, 'e.ndjson');
    assert.equal(parseCommandLine(['consume', 't', '-f']).values.follow, true);
  });

  test("no command or -h is help; --help after a command is that command's help", () => {
    assert.equal(parseCommandLine([]).command, 'help');
    assert.equal(parseCommandLine(['-h']).command, 'help');
    assert.deepEqual(parseCommandLine(['apply', '--help']).positionals, ['apply']);
  });

  test('usage errors say what was wrong', () => {
    const usage = (argv: string[], re: RegExp) =>
      assert.throws(
        () => parseCommandLine(argv),
        (e: unknown) => e instanceof UsageError && re.test(e.message),
      );
    usage(['frob'], /unknown command 'frob'/);
    usage(['--server', 'x', 'get'], /the command comes first/);
    usage(['get'], /get: expected 1 to 2 argument\(s\), found 0/);
    usage(['describe', 'rule'], /describe: expected 2 argument\(s\), found 1/);
    usage(['get', 'rules', '--nope'], /Unknown option '--nope'/);
    usage(['get', 'rules', '-o', 'xml'], /-o xml: the output is one of table, json, yaml/);
    usage(['engine', 'state', 'extra'], /expected 1 argument/);
    usage(
      ['diff', 'rule', 'r'],
      /diff: expected 3 to 4 argument\(s\), found 2: weirctl diff <kind> <id> <from> \[to\]/,
    );
    usage(['rollback', 'rule', 'r'], /rollback: expected 3 argument\(s\), found 2/);
    usage(['get', 'rules', '--note', 'x'], /Unknown option '--note'/);
  });

  test('integer flags', () => {
    assert.equal(intFlag({ max: '10' }, 'max'), 10);
    assert.equal(intFlag({}, 'max'), undefined);
    assert.throws(() => intFlag({ max: '-1' }, 'max'), /--max must be a non-negative integer, found '-1'/);
    assert.throws(() => intFlag({ max: '1e3' }, 'max'), UsageError);
  });
});
