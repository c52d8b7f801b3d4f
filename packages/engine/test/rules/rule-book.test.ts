import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPdlSyntaxError } from '@weir/pdl';
import { LookupTables } from '../../src/rules/lookup-tables.ts';
import { RuleBook } from '../../src/rules/rule-book.ts';

const rule = (id: string, pdl: string, more: { enabled?: boolean } = {}) => ({
  id,
  name: `Rule ${id}`,
  pdl,
  annotations: [`a.${id}`],
  enabled: more.enabled ?? true,
});

test('update: every rule compiled; unchanged PDL keeps its program; a broken rule is left out with its reason', () => {
  const lookups = new LookupTables();
  const book = new RuleBook();
  book.update([rule('a', 'user="bob"'), rule('b', 'user="eve"', { enabled: false }), rule('c', 'user=')], lookups);
  const a = book.get('a');
  assert.deepEqual(
    { ...a, compiled: undefined },
    {
      id: 'a',
      name: 'Rule a',
      annotations: ['a.a'],
      description: undefined,
      pdl: 'user="bob"',
      datamodel: undefined,
      enabled: true,
      compiled: undefined,
    },
  );
  assert.notEqual(a?.compiled.run({ user: 'bob' }, { timestamp: 0 }), null);
  assert.equal(book.get('b')?.enabled, false);
  assert.equal(book.get('c'), undefined);
  assert.deepEqual([...book.broken.keys()], ['c']);
  const version = book.version;

  book.update([rule('a', 'user="bob"'), rule('b', 'user="mallory"')], lookups);
  assert.strictEqual(book.get('a')?.compiled, a?.compiled, 'same PDL: the compiled program is reused');
  assert.equal(book.get('b')?.pdl, 'user="mallory"');
  assert.equal(book.broken.size, 0);
  assert.notEqual(book.version, version);
});

test('a rule using a lookup compiles only while the lookup exists', () => {
  const lookups = new LookupTables();
  const book = new RuleBook();
  const uses = rule('l', 'lookup admins name AS user OUTPUT role');
  lookups.update([{ id: 'admins', content: [{ name: 'bob' }] }]);
  book.update([uses], lookups);
  assert.ok(book.get('l'));
  lookups.update([]);
  book.update([{ ...uses, pdl: `${uses.pdl} ` }], lookups);
  assert.equal(book.get('l'), undefined);
  assert.ok(book.broken.has('l'));
});

test('readFrom: rules read and compiled on first use, each once', () => {
  const reads: string[] = [];
  const stored = new Map([
    ['a', rule('a', 'x=1')],
    ['bad', rule('bad', 'x=')],
  ]);
  const book = new RuleBook();
  book.readFrom((id) => (reads.push(id), stored.get(id)), new LookupTables());
  assert.equal(reads.length, 0, 'nothing read before it is asked for');
  const a = book.get('a');
  assert.strictEqual(book.get('a'), a);
  assert.equal(book.get('missing'), undefined);
  assert.equal(book.get('missing'), undefined);
  assert.equal(book.get('bad'), undefined);
  assert.deepEqual(reads, ['a', 'missing', 'bad']);
  assert.ok(book.broken.has('bad'));
});

test('compiled: the rule a rule test runs, enabled or not; undefined when missing; a broken rule throws its compile error', () => {
  const stored = new Map([
    ['off', rule('off', 'x=1', { enabled: false })],
    ['bad', rule('bad', 'x=')],
  ]);
  const book = new RuleBook();
  book.readFrom((id) => stored.get(id), new LookupTables());
  assert.notEqual(book.compiled('off')?.run({ x: 1 }, { timestamp: 0 }), null);
  assert.equal(book.compiled('missing'), undefined);
  assert.throws(
    () => book.compiled('bad'),
    (err: Error) => isPdlSyntaxError(err) && err.message === book.broken.get('bad'),
  );
});
