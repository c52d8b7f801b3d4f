import assert from 'node:assert/strict';
import { test } from 'node:test';
import { columnsOf, previewLookup } from '../../src/lib/lookup-preview.ts';

test('CSV: header names the fields; unquoted plain numbers become numbers, quoted cells and leading zeros stay text', () => {
  const rows = previewLookup(
    '\uFEFFip,owner,floor,code\r\n10.0.0.1,alice,3,007\n\n10.0.0.2,"bob, ""jr""","4",-1.5e2\n',
    'owners.csv',
  );
  assert.deepEqual(rows, [
    { ip: '10.0.0.1', owner: 'alice', floor: 3, code: '007' },
    { ip: '10.0.0.2', owner: 'bob, "jr"', floor: '4', code: -150 },
  ]);
  assert.deepEqual(columnsOf(rows), ['ip', 'owner', 'floor', 'code']);
});

test('CSV: quoted line breaks stay in their cell', () => {
  assert.deepEqual(previewLookup('a,b\n"x\ny",2\n', 'f.csv'), [{ a: 'x\ny', b: 2 }]);
});

test('CSV errors say what and where', () => {
  assert.throws(() => previewLookup('a,b\n1\n', 'f.csv'), /row 2 has 1 cells, the header has 2/);
  assert.throws(() => previewLookup('a,,b\n1,2,3\n', 'f.csv'), /field name 2 of the header line is empty/);
  assert.throws(() => previewLookup('a,a\n1,2\n', 'f.csv'), /the field name 'a' appears more than once/);
  assert.throws(() => previewLookup('a\n"open\n', 'f.csv'), /a quoted cell is not closed/);
  assert.throws(() => previewLookup('  \n', 'f.csv'), /the file is empty/);
});

test('JSON: an array of objects; anything else is refused saying what was found', () => {
  assert.deepEqual(previewLookup('[{"a":1},{"b":"x"}]', 'f.json'), [{ a: 1 }, { b: 'x' }]);
  assert.deepEqual(previewLookup(' [{"a":1}]', 'noext'), [{ a: 1 }], 'JSON-looking text without an extension is JSON');
  assert.throws(() => previewLookup('{"a":1}', 'f.json'), /expected a JSON array of objects, found an object/);
  assert.throws(() => previewLookup('[{"a":1}, 3]', 'f.json'), /element 1 is a number/);
  assert.throws(() => previewLookup('[{', 'f.json'), /it is not valid JSON/);
});
