import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moveLookupJson, releaseJson, shareLookupJson } from '../../src/rules/lookup-json.ts';
import { SharedLookup, shareLookup } from '../../src/rules/shared-lookup.ts';

/** Rows whose JSON holds every kind of value, escapes, nested brackets inside strings and multi-byte text. */
const rows: Record<string, unknown>[] = [
  { ip: '10.0.0.1', owner: 'alice', n: 1, ok: true, none: null },
  { ip: '10.0.0.2', owner: 'bö "b" \\ }{][,:', tags: ['a', { x: [1, 2.5e3, -7] }], nested: { a: { b: {} } } },
  { ip: '10.0.0.3', owner: '日本語 😀', empty: [], e: {} },
  {},
];

const texts = (data: ReturnType<typeof shareLookupJson>) => {
  const bytes = Buffer.from(data.bytes);
  const starts = new Float64Array(data.starts);
  return Array.from({ length: data.count }, (_, i) => bytes.toString('utf8', starts[i]!, starts[i + 1]!));
};

test("a stored lookup's JSON gives the same shared rows as its parsed rows, each row's text as stored", () => {
  const json = Buffer.from(JSON.stringify({ id: 'assets', content: rows }));
  const data = shareLookupJson(json);
  const expected = shareLookup('assets', rows);
  assert.equal(data.id, 'assets');
  assert.equal(data.count, 4);
  assert.deepEqual(texts(data), texts(expected));
  assert.deepEqual(
    texts(data).map((t) => JSON.parse(t) as unknown),
    rows,
  );
  const table = new SharedLookup(data, 1);
  assert.deepEqual(table.first('owner', ['owner'], 's:日本語 😀'), rows[2]);
});

test('white space, the keys in another order, other keys, and an empty table', () => {
  const json = Buffer.from(
    ` { "other" : {"content": [1]} , "content" : [ {"ip" : "a"} ,\n\t{"ip":"b"} ] , "n": -1.5e2, "t": true, "id" : "x\\"y" } \n`,
  );
  const data = shareLookupJson(json);
  assert.equal(data.id, 'x"y');
  assert.deepEqual(texts(data), ['{"ip" : "a"}', '{"ip":"b"}']);
  const empty = shareLookupJson(Buffer.from('{"id":"e","content":[]}'));
  assert.equal(empty.count, 0);
  assert.equal(empty.bytes.byteLength, 0);
  assert.deepEqual([...new Float64Array(empty.starts)], [0]);
});

test('what is not a stored lookup fails with what is wrong and where', () => {
  const fails = (text: string, message: string) =>
    assert.throws(() => shareLookupJson(Buffer.from(text)), { message: `a stored lookup's JSON: ${message}` });
  fails('{"id":"a","content":[{"ip":1},2]}', 'row 2 is not an object at byte 30');
  fails('{"id":"a","content":[{"ip":"1"}', "']' expected at byte 31");
  fails('{"id":"a","content":[{"ip":"1}]}', 'a string without its end at byte 27');
  fails('{"id":"a","content":[{"ip":{"a":"1"}', 'an object or array without its end at byte 21');
  fails('{"content":[]}', 'no string "id" at byte 14');
  fails('{"id":"a"}', 'no "content" at byte 10');
  fails('{"id":"a","content":[]} x', 'more after the record at byte 24');
  fails('["id"]', "'{' expected at byte 0");
});

test('moveLookupJson frees bytes that are their whole buffer once shared; releaseJson leaves part of a buffer or shared memory alone', () => {
  const json = Buffer.from(JSON.stringify({ id: 'assets', content: rows }).padEnd(8192)); // its own buffer, not the pool's
  const data = moveLookupJson(json);
  assert.equal(json.byteLength, 0);
  assert.equal(json.buffer.detached, true);
  // the shared copy is whole without the bytes it came from
  assert.deepEqual(
    texts(data),
    rows.map((r) => JSON.stringify(r)),
  );

  const pool = new Uint8Array(64).fill(0x20);
  const part = pool.subarray(8, 16);
  releaseJson(part);
  assert.equal(part.byteLength, 8);
  assert.equal(pool.buffer.detached, false);

  const shared = new Uint8Array(new SharedArrayBuffer(16));
  releaseJson(shared);
  assert.equal(shared.byteLength, 16);

  releaseJson(json); // twice: nothing more to do
  assert.equal(json.byteLength, 0);
});
