import assert from 'node:assert/strict';
import { test } from 'node:test';
import { missingText, pickListChange, quoted, unknownValues } from '../../src/forms/pick-list.ts';

const rules = ['failed-logon', 'brute-force'];

test('unknownValues: the values not among the options, in order, each once; none while the options load', () => {
  assert.deepEqual(unknownValues(['failed', 'failed-logon', 'x', 'failed'], rules), ['failed', 'x']);
  assert.deepEqual(unknownValues(['failed-logon'], rules), []);
  assert.deepEqual(unknownValues(['failed'], undefined), []);
});

test('quoted: ids in backticks, comma separated', () => {
  assert.equal(quoted(['a']), '`a`');
  assert.equal(quoted(['a', 'b']), '`a`, `b`');
});

test('pickListChange: a picked id is kept; typed text naming no id is refused with a message', () => {
  assert.deepEqual(pickListChange([], ['failed-logon'], rules, 'rule'), {
    value: ['failed-logon'],
    refused: undefined,
  });
  assert.deepEqual(pickListChange(['brute-force'], ['brute-force', 'failed'], rules, 'rule'), {
    value: ['brute-force'],
    refused: 'No rule has the id `failed`: pick a rule from the list',
  });
  // A pasted list: the known ids are added, the others named.
  assert.deepEqual(pickListChange([], ['failed', 'brute-force', 'nope'], rules, 'rule'), {
    value: ['brute-force'],
    refused: 'No rule has the ids `failed`, `nope`: pick rules from the list',
  });
});

test('pickListChange: an id already in the record stays even if it no longer exists; removing is always allowed', () => {
  assert.deepEqual(pickListChange(['gone'], ['gone', 'failed-logon'], rules, 'rule'), {
    value: ['gone', 'failed-logon'],
    refused: undefined,
  });
  assert.deepEqual(pickListChange(['gone', 'failed-logon'], ['failed-logon'], rules, 'rule'), {
    value: ['failed-logon'],
    refused: undefined,
  });
});

test('pickListChange: nothing is refused while the options load', () => {
  assert.deepEqual(pickListChange([], ['failed'], undefined, 'rule'), { value: ['failed'], refused: undefined });
});

test('missingText: names the ids of the record that do not exist', () => {
  assert.equal(missingText(['failed-logon'], rules, 'rule'), undefined);
  assert.equal(missingText(['failed'], rules, 'rule'), 'The rule `failed` does not exist: remove it or pick another');
  assert.equal(
    missingText(['a', 'failed-logon', 'b'], rules, 'rule'),
    'The rules `a`, `b` do not exist: remove them or pick others',
  );
  assert.equal(missingText(['failed'], undefined, 'rule'), undefined);
});
