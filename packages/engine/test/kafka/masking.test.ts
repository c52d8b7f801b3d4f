import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskText, maskValue, messageMasker } from '../../src/kafka/masking.ts';

const mask = (fields: string[]) => messageMasker(fields)!;

test('a plain name masks that field at any depth, in any case; a dotted path only there (through arrays)', () => {
  const names = new Set(['password']);
  const paths = [['users', 'ssn']];
  const value = {
    Password: 'a',
    nested: { password: 'b', ssn: 'kept' },
    users: [{ ssn: '1', name: 'x' }, { ssn: '2' }],
    list: [{ PASSWORD: 'c' }],
  };
  assert.deepEqual(maskValue(value, names, paths), {
    Password: maskText,
    nested: { password: maskText, ssn: 'kept' },
    users: [{ ssn: maskText, name: 'x' }, { ssn: maskText }],
    list: [{ PASSWORD: maskText }],
  });
  assert.deepEqual(value.nested, { password: 'b', ssn: 'kept' }, 'the input is not changed');
});

test('JSON text comes back as compact JSON when masked, unchanged (same text) otherwise', () => {
  const names = new Set(['secret']);
  assert.equal(maskValue('{ "secret": 1, "a": [1, 2] }', names, []), '{"secret":"***","a":[1,2]}');
  const untouched = '{ "a": 1 }';
  assert.equal(maskValue(untouched, names, []), untouched);
  assert.equal(maskValue('secret=1', names, []), 'secret=1', 'text that is not JSON');
  assert.equal(maskValue('{broken', names, []), '{broken');
  assert.equal(maskValue(42, names, []), 42);
  assert.equal(maskValue(null, names, []), null);
});

test('a message: key, value and headers of a listed name; the same object when nothing is masked', () => {
  const m = {
    key: '{"password":"k"}',
    value: { card: { number: '4111' } },
    partition: 0,
    offset: 1,
    timestamp: 2,
    headers: { password: 'h', other: 'o' },
  };
  assert.deepEqual(mask(['password', 'card.number'])(m), {
    ...m,
    key: '{"password":"***"}',
    value: { card: { number: maskText } },
    headers: { password: maskText, other: 'o' },
  });
  const clean = { key: null, value: 'x', partition: 0, offset: 0, timestamp: 0 };
  assert.equal(mask(['password'])(clean), clean);
  assert.equal(messageMasker([]), undefined);
  assert.deepEqual(
    mask(['card.number'])({ ...clean, value: { number: 1 } }).value,
    { number: 1 },
    'paths start at the root',
  );
});
