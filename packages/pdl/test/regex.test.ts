import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UserRegexError, compile, compileUserRegex } from '../src/index.ts';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { literalSearch, requiredLiteral } from '../src/regex.ts';

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
    assert.throws(
      () => compileUserRegex('(a'),
      (e: unknown) => e instanceof UserRegexError && e.reason === 'missing closing ): `(a`',
    );
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

describe('required literal prefilter', () => {
  test('the longest top-level literal run, or null when unsure', () => {
    const cases: [string, string | null][] = [
      ['(?i)\\s-e(nc|ncodedcommand)?\\s+[a-z0-9+/=]{8,}', '-e'],
      ['https?://[0-9]{1,3}\\.[0-9]{1,3}', 'http'],
      ['\\\\AppData\\\\Temp\\\\[a-z]+\\.(dll|exe)', '\\AppData\\Temp\\'],
      ['ab+c', 'ab'],
      ['abc?d', 'ab'],
      ['x{2}yz', 'yz'],
      ['[[:alpha:]]]xy', 'xy'],
      ['[]a]bc', 'bc'],
      ['ab[c]de', 'ab'],
      ['abc(d)ef', 'abc'],
      ['(?<n>a)bcd', 'bcd'],
      ['(?:a|b)cd', 'cd'],
      ['ab(?i:x)y', 'ab'],
      ['(?i)cmd.{0,5}(?:/c|/r).+powershell', 'powershell'],
      ['(?-s:a)bc', 'bc'],
      ['a|b', null],
      ['(?s)abc', null],
      ['x(?i)abc', null],
      ['\\x41BC', null],
      ['\\Qa|b\\E', null],
      ['é?', null],
      ['.*', null],
    ];
    for (const [pattern, text] of cases) assert.equal(requiredLiteral(pattern)?.text ?? null, text, pattern);
  });

  test('property: the prefilter never rejects a text RE2 matches', () => {
    // pieces of pattern with a text they match, so that generated texts often match
    const atoms: [string, string][] = [
      ['a', 'a'],
      ['b', 'b'],
      ['A', 'A'],
      ['-', '-'],
      ['e', 'e'],
      ['\\.', '.'],
      ['.', 'x'],
      ['\\s', ' '],
      ['\\d', '1'],
      ['[ab]', 'b'],
      ['[^a]', 'c'],
      ['(a|b)', 'b'],
      ['(?:ab)', 'ab'],
      ['(?i:ab)', 'aB'],
      ['(?<g>b)', 'b'],
      ['\\(', '('],
      ['/', '/'],
      ['é', 'é'],
      ['😀', '😀'],
      [']', ']'],
      ['^', ''],
      ['$', ''],
      ['\\x41', 'A'],
      ['\\pL', 'q'],
    ];
    const quantifiers: [string, number, number][] = [
      ['', 1, 1],
      ['', 1, 1],
      ['', 1, 1],
      ['', 1, 1],
      ['?', 0, 1],
      ['*', 0, 2],
      ['+', 1, 2],
      ['{2}', 2, 2],
      ['{0,1}', 0, 1],
      ['*?', 0, 2],
    ];
    const piece = fc
      .tuple(
        fc.oneof(
          { weight: 2, arbitrary: fc.constantFrom(...atoms.slice(0, 5)) },
          { weight: 3, arbitrary: fc.constantFrom(...atoms) },
        ),
        fc.constantFrom(...quantifiers),
        fc.nat(2),
      )
      .map(([[re, sample], [q, min, max], n]) => ({ re: re + q, sample: sample.repeat(Math.min(max, min + n)) }));
    const flip = (t: string, seed: number): string =>
      [...t].map((c, i) => ((seed >> (i % 16)) & 1 ? c.toUpperCase() : c)).join('');
    const noise = fc
      .array(fc.constantFrom('a', 'b', 'A', 'B', '-', 'e', 'E', '.', ' ', '1', '(', '/', 'é', '😀', ']', 'ſ'), {
        maxLength: 4,
      })
      .map((c) => c.join(''));
    const example = fc
      .tuple(
        fc.boolean(),
        fc.array(piece, { minLength: 1, maxLength: 6 }),
        fc.oneof(
          { weight: 4, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.array(piece, { maxLength: 3 }) },
        ),
        fc.array(fc.tuple(noise, noise, fc.nat()), { minLength: 1, maxLength: 4 }),
      )
      .map(([ignoreCase, left, right, wraps]) => ({
        pattern:
          (ignoreCase ? '(?i)' : '') +
          left.map((p) => p.re).join('') +
          (right === null ? '' : '|' + right.map((p) => p.re).join('')),
        texts: wraps.map(
          ([before, after, seed]) =>
            before +
            (ignoreCase ? flip(left.map((p) => p.sample).join(''), seed) : left.map((p) => p.sample).join('')) +
            after,
        ),
      }))
      .filter(({ pattern }) => {
        try {
          RE2JS.compile(pattern);
          return true;
        } catch {
          return false;
        }
      });
    let matched = 0;
    fc.assert(
      fc.property(example, noise, ({ pattern, texts }, other) => {
        const re = RE2JS.compile(pattern);
        const user = compileUserRegex(pattern);
        for (const t of [...texts, other]) {
          const expected = re.test(t);
          if (expected) matched++;
          assert.equal(user.test(t), expected, `${pattern} on ${JSON.stringify(t)}`);
        }
      }),
      { numRuns: 3000 },
    );
    assert.ok(matched > 3000, `${matched} matching texts`);
  });
});

describe("Java-only constructs (the original's regex dialect) are refused at save, naming the construct and its column", () => {
  const reason = (pattern: string): string => {
    try {
      compileUserRegex(pattern);
    } catch (error) {
      return (error as UserRegexError).reason;
    }
    return 'accepted';
  };
  const tail =
    ': Java regex syntax that needs backtracking, which Weir does not run (regular expressions run in linear time, RE2 syntax, so that no event can stall the stream); ';
  test('look-ahead, look-behind, back-references, possessive quantifiers, atomic groups', () => {
    assert.equal(
      reason('a(?=b)'),
      `look-ahead '(?=' at column 2 of the regular expression${tail}drop it and match the text itself, or test the condition with a separate query`,
    );
    assert.equal(
      reason('x(?!y)'),
      `look-ahead '(?!' at column 2 of the regular expression${tail}drop it and match the text itself, or test the condition with a separate query`,
    );
    assert.equal(
      reason('(?<=a)b'),
      `look-behind '(?<=' at column 1 of the regular expression${tail}drop it and match the text itself, or test the condition with a separate query`,
    );
    assert.equal(
      reason('(?<!a)b'),
      `look-behind '(?<!' at column 1 of the regular expression${tail}drop it and match the text itself, or test the condition with a separate query`,
    );
    assert.equal(
      reason('(a)\\1'),
      `back-reference '\\1' at column 4 of the regular expression${tail}repeat the group's pattern instead`,
    );
    assert.equal(
      reason('(?<n>a)\\k<n>'),
      `back-reference '\\k<n>' at column 8 of the regular expression${tail}repeat the group's pattern instead`,
    );
    assert.equal(
      reason('ab++'),
      `possessive quantifier '++' at column 3 of the regular expression${tail}write '+' instead of '++'`,
    );
    assert.equal(
      reason('a{2,}+'),
      `possessive quantifier '}+' at column 5 of the regular expression${tail}write '}' instead of '}+'`,
    );
    assert.equal(
      reason('(?>a)'),
      `atomic group '(?>' at column 1 of the regular expression${tail}use a plain group (?:...)`,
    );
  });
  test('the same characters escaped or in a class are plain text; lazy quantifiers and named groups are RE2', () => {
    for (const ok of ['[(?=]', '\\(?=x\\)', '\\\\1', 'a+?', '(?<name>x)', '(?i)a*', '[a+]+'])
      assert.equal(reason(ok), 'accepted', ok);
  });
});
