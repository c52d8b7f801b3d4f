import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wordMatch } from '../../src/alerts/alert-text.ts';

test('wordMatch: the first word only after a separator, the last as a prefix unless a separator ends the text', () => {
  assert.equal(wordMatch('host-17"'), '"17"');
  assert.equal(wordMatch(' failed login'), '"failed" AND "login" *');
  assert.equal(wordMatch('=alice '), '"alice"');
  assert.equal(wordMatch('alice'), undefined);
  assert.equal(wordMatch('--'), undefined);
  assert.equal(wordMatch(' müller'), undefined);
});
