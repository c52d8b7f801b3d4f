import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UserRegexError, compile, compileUserRegex } from '../src/index.ts';
import { literalSearch } from '../src/regex.ts';

describe('compileUserRegex', () => {
  test('search semantics, (?i) and named groups', () => {
    const re = compileUserRegex('(?i)user=(?<user>\\w+)(?: port=(?<port>\\d+))?');
    assert.equal(re.test('x USER=Bob y'), true);
    assert.equal(re.test('nobody'), false);
    assert.deepEqual(re.groupNames, ['user', 'port']);
    assert.deepEqual(re.namedGroups('USER=Bob port=22'), { user: 'Bob', port: '22' });
    assert.deepEqual(re.namedGroups('user=al'), { user: 'al' });
    assert.equal(re.namedGroups('none'), null);
    assert.equal(re.replaceAll('user=a user=b', '[$<user>]'), '[a] [b]');
  });

  test('invalid and unsupported patterns throw UserRegexError with the reason', () => {
    assert.throws(() => compileUserRegex('(a'), (e: unknown) => e instanceof UserRegexError && e.reason === 'missing closing ): `(a`');
    assert.throws(() => compileUserRegex('(a)\\1'), UserRegexError); // back-references cannot run in linear time
    assert.throws(() => compileUserRegex('a(?!b)'), UserRegexError); // nor look-arounds
  });

  test('never hangs: catastrophic patterns run in linear time', () => {
    const evil = `${'a'.repeat(50_000)}!`;
    const start = performance.now();
    assert.equal(compileUserRegex('^(a+)+$').test(evil), false);
    assert.equal(compileUserRegex('(a|aa)*c').test(evil), false);
    assert.equal(compileUserRegex('(.*a){12}b$').test(evil.slice(0, 2000)), false);
    assert.equal(compile('x ~= "^(a+)+$"').run({ x: evil }), null);
    assert.ok(performance.now() - start < 3000);
  });

  test('plain-text patterns take the String.includes fast path with the same answers', () => {
    assert.equal(typeof literalSearch('cmd\\.exe'), 'function');
    assert.equal(literalSearch('cmd.exe'), null);
    assert.equal(literalSearch('\\d'), null);
    assert.equal(literalSearch('(?i)straße'), null); // non-ASCII case folding stays with RE2
    const cases: [string, string, boolean][] = [
      ['(?i)\\\\CMD\\.exe', 'C:\\Windows\\cmd.EXE /c', true],
      ['(?i)\\\\CMD\\.exe', 'C:\\Windows\\cmdXexe', false],
      ['whoami', 'whoami /all', true],
      ['whoami', 'WHOAMI', false],
      ['', 'anything', true],
      ['(?i)s', '\u017f', true], // RE2 folds the long s; non-ASCII text goes to RE2
      ['(?i)i', '\u0130', false], // toLowerCase would turn İ into i + dot
    ];
    for (const [pattern, text, expected] of cases) {
      assert.equal(compileUserRegex(pattern).test(text), expected, pattern);
      assert.equal(compileUserRegex(`(?:${pattern})`).test(text), expected, `RE2 ${pattern}`);
    }
  });
});
