import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../src/index.ts';
import type { LookupTable } from '../src/index.ts';
import { run } from './helpers.ts';

describe('fields', () => {
  const event = { a: 1, b: { c: 2, d: 3 }, e: [1, 2] };
  test('keep lists paths with their parents', () => {
    assert.deepEqual(run('fields keep a, b.c', event), { a: 1, b: { c: 2 } });
    assert.deepEqual(run('fields keep b', event), { b: { c: 2, d: 3 } });
    assert.deepEqual(run('fields keep missing, x.y', event), {});
  });
  test('remove drops paths; removing the last child leaves the empty object', () => {
    assert.deepEqual(run('fields remove a, b.c', event), { b: { d: 3 }, e: [1, 2] });
    assert.deepEqual(run('fields remove b.c, b.d', event), { a: 1, b: {}, e: [1, 2] });
    assert.deepEqual(run('fields remove missing.x', event), event);
  });
});

describe('rename', () => {
  test('moves values, nested to top level and back', () => {
    assert.deepEqual(run('rename b.c AS c', { b: { c: 2 } }), { b: {}, c: 2 });
    assert.deepEqual(run('rename a AS x.y', { a: 1 }), { x: { y: 1 } });
    assert.deepEqual(run('rename a AS b, b AS c', { a: 1 }), { c: 1 });
  });
  test('a missing source is a no-op; an existing target is overwritten', () => {
    assert.deepEqual(run('rename nope AS a', { a: 1 }), { a: 1 });
    assert.deepEqual(run('rename a AS b', { a: 1, b: 2 }), { b: 1 });
  });
});

describe('flatten', () => {
  test('nested objects join keys with _, arrays get _<index>', () => {
    assert.deepEqual(run('flatten', { a: { b: 1, c: { d: 'x' } }, list: ['p', 'q'], objs: [{ k: 1 }], s: 's' }), {
      a_b: 1,
      a_c_d: 'x',
      list_0: 'p',
      list_1: 'q',
      objs_0_k: 1,
      s: 's',
    });
  });
  test('empty objects and arrays are kept as they are', () => {
    assert.deepEqual(run('flatten', { e: {}, l: [], n: null }), { e: {}, l: [], n: null });
  });
});

describe('lookup', () => {
  const users: LookupTable = {
    version: 1,
    rows: [
      { EventID: '4625', name: 'logon failure', severity: 3 },
      { EventID: '4624', name: 'logon', severity: 1 },
      { EventID: '4625', name: 'duplicate: first row wins', severity: 9 },
    ],
  };
  const tables = new Map<string, LookupTable>([['events', users]]);
  const lookups = { get: (id: string) => tables.get(id) };

  test('copies listed columns from the first matching row; 4625 matches "4625"', () => {
    const c = compile('lookup events EventID OUTPUT name, severity AS sev', { lookups });
    assert.deepEqual(c.run({ EventID: 4625 }), { EventID: 4625, name: 'logon failure', sev: 3 });
    assert.deepEqual(c.run({ EventID: '4624' }), { EventID: '4624', name: 'logon', sev: 1 });
  });
  test('AS eventField; nested targets; no match passes the event unchanged', () => {
    const c = compile('lookup events EventID AS win.id OUTPUT name AS info.name', { lookups });
    assert.deepEqual(c.run({ win: { id: 4624 } }), { win: { id: 4624 }, info: { name: 'logon' } });
    assert.deepEqual(c.run({ win: { id: 1 } }), { win: { id: 1 } });
    assert.deepEqual(c.run({}), {});
  });
  test('an updated table (new version) applies to a running program', () => {
    const c = compile('lookup events EventID OUTPUT name', { lookups });
    assert.equal(c.run({ EventID: 1 })?.['name'], undefined);
    tables.set('events', { version: 2, rows: [{ EventID: 1, name: 'new' }] });
    assert.equal(c.run({ EventID: 1 })?.['name'], 'new');
    tables.set('events', users);
  });
  test('array event values: the first element with a row', () => {
    const c = compile('lookup events EventID OUTPUT name', { lookups });
    assert.equal(c.run({ EventID: [1, 4624] })?.['name'], 'logon');
  });
  test('indexed: 100,000 lookups in a 10,000-row table are fast', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ ip: `10.0.${i >> 8}.${i & 255}`, owner: `u${i}` }));
    const big = { get: () => ({ version: 'v', rows }) as LookupTable };
    const c = compile('lookup hosts ip OUTPUT owner', { lookups: big });
    const start = performance.now();
    for (let i = 0; i < 100_000; i++) c.run({ ip: `10.0.${(i % 10_000) >> 8}.${i & 255}` });
    assert.ok(performance.now() - start < 2000);
    assert.equal(c.run({ ip: '10.0.0.5' })?.['owner'], 'u5');
  });
});

describe('rex', () => {
  test('one field per named group of the first match; numerals become numbers', () => {
    assert.deepEqual(
      run('rex msg "user=(?<user>\\w+) port=(?<port>\\d+)"', { msg: 'x user=bob port=0443 user=al port=22' }),
      {
        msg: 'x user=bob port=0443 user=al port=22',
        user: 'bob',
        port: '0443', // not canonical: stays a string
      },
    );
    assert.deepEqual(run('rex msg "port=(?<port>\\d+)"', { msg: 'port=22' }), { msg: 'port=22', port: 22 });
  });
  test('(?i), unmatched optional groups, no match, non-strings', () => {
    assert.deepEqual(run('rex m "(?i)ID:(?<id>\\d+)(?<opt>x)?"', { m: 'id:5' }), { m: 'id:5', id: 5 });
    assert.deepEqual(run('rex m "(?<a>z)"', { m: 'abc' }), { m: 'abc' });
    assert.deepEqual(run('rex m "(?<a>z)"', { m: 5 }), { m: 5 });
  });
});

describe('parse_kv', () => {
  test('pairs separated by whitespace or commas; blanks around the delimiter; quoted values; numerals', () => {
    assert.deepEqual(
      run('parse_kv msg | fields remove msg', { msg: 'user=alice src = 10.0.0.1, port=443 note="a b, c" flag' }),
      {
        user: 'alice',
        src: '10.0.0.1',
        port: 443,
        note: 'a b, c',
      },
    );
  });
  test('custom delimiter; escaped quotes; non-strings are ignored', () => {
    assert.deepEqual(run('parse_kv m delimiter=":" | fields remove m', { m: 'a:1 b:"x\\"y"' }), { a: 1, b: 'x"y' });
    assert.deepEqual(run('parse_kv m', { m: 1 }), { m: 1 });
  });
});

describe('parse_csv', () => {
  test('splits respecting quotes, trims, converts numerals, assigns header names in order', () => {
    assert.deepEqual(
      run('parse_csv line header="a, b, c" | fields remove line', { line: ' 1 , "x, y" ,"say ""hi"""' }),
      {
        a: 1,
        b: 'x, y',
        c: 'say "hi"',
      },
    );
  });
  test('extra cells are ignored; missing cells leave the field unset; custom delimiter', () => {
    assert.deepEqual(run('parse_csv l header="a,b" | fields remove l', { l: '1,2,3' }), { a: 1, b: 2 });
    assert.deepEqual(run('parse_csv l header="a,b,c" | fields remove l', { l: 'x' }), { a: 'x' });
    assert.deepEqual(run('parse_csv l header="a;b" delimiter=";" | fields remove l', { l: 'p;q' }), { a: 'p', b: 'q' });
  });
});
