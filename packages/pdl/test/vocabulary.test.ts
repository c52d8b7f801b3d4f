import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commands, functionNames, keywords, optionWords, parse, print } from '../src/index.ts';

test('a field named like a word of the vocabulary is printed backquoted, and reads back as the same field', () => {
  for (const word of [...keywords, ...commands, ...optionWords]) {
    const text = `\`${word}\` = 1`;
    assert.equal(print(parse(text)), text, word);
  }
  assert.equal(print(parse('`user` = 1')), 'user = 1');
});

test("the vocabulary: the fourteen commands, and the functions by their own names (not an object prototype's)", () => {
  for (const name of functionNames) assert.match(name, /^[a-z_0-9]+$/, name);
  assert.deepEqual([...commands].sort(), [
    'eval',
    'event_count',
    'fields',
    'flatten',
    'lookup',
    'parse_csv',
    'parse_kv',
    'rename',
    'rex',
    'temporal',
    'value_avg',
    'value_count',
    'value_percentile',
    'value_sum',
  ]);
  assert.ok(functionNames.has('upper') && !functionNames.has('toString'));
});
