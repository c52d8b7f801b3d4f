import { test } from 'node:test';
import assert from 'node:assert/strict';
import { neverMatches } from '../src/lintRegexMatch.ts';

test('neverMatches: $ before a required character, ^ after one, nothing else', () => {
  assert.match(neverMatches('abc$d') ?? '', /'\$' \(the end of the text\) at column 4 is followed by 'd'/);
  assert.match(neverMatches('(?i)x^y') ?? '', /'\^' \(the start of the text\) at column 6 comes after 'x'/);
  for (const ok of ['^abc$', 'a$|b', '(?m)a$\nb', 'a$b?', 'a$b*', '(a$|b)c', '[$x]', 'a\\$b', 'x?^y', '(?i)^y'])
    assert.equal(neverMatches(ok), undefined, ok);
});
