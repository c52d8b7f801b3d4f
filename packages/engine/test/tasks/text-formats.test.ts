import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile } from '@weir/pdl';
import { fromText, setOwn } from '../../src/tasks/event-values.ts';
import { parseKeyValues, splitCsv } from '../../src/tasks/text-formats.ts';

function kv(text: string, delimiter = '='): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  parseKeyValues(text, delimiter, (k, v) => setOwn(out, k, fromText(v)));
  return out;
}

const kvSamples = [
  'a=1 b=two,c=3',
  'user=bob, action="log in", port=443',
  'msg="say \\"hi\\" now" path="C:\\\\tmp"',
  'a = 1  b= 2 c =3',
  'lonely a=1 =x b=',
  'a=1,,b=2\tc=3\nd=4\re=5',
  'url=http://x/?q=1 a==b',
  'unterminated="abc def',
  'a=1 a=2',
  '__proto__=x constructor=y',
  'n=0443 m=-1.5 f=1e3 g=443.0',
  '',
  '   ',
  'key:value other:2',
];

const csvSamples = [
  'a,b,c',
  ' a , "b, with comma" ,c ',
  '"quoted ""inner"" text",2,',
  'x;y;z',
  '"unterminated,a',
  ',,',
  '1,0443,-2.5',
];

test('parse_kv reads exactly like the PDL stage parse_kv (shared semantics, pdl.md)', () => {
  for (const delimiter of ['=', ':', '=>']) {
    const stage = compile(`parse_kv text delimiter="${delimiter}"`);
    for (const sample of kvSamples) {
      const expected = { ...stage.run({ text: sample }) };
      delete expected.text;
      assert.deepEqual(kv(sample, delimiter), expected, `${delimiter} ${JSON.stringify(sample)}`);
    }
  }
});

test('parse_csv splits exactly like the PDL stage parse_csv', () => {
  for (const delimiter of [',', ';']) {
    const stage = compile(`parse_csv text header="c0${delimiter}c1${delimiter}c2${delimiter}c3" delimiter="${delimiter}"`);
    for (const sample of csvSamples) {
      const expected = { ...stage.run({ text: sample }) };
      delete expected.text;
      const cells = splitCsv(sample, delimiter);
      const actual: Record<string, unknown> = {};
      cells.slice(0, 4).forEach((cell, i) => (actual[`c${i}`] = fromText(cell)));
      assert.deepEqual(actual, expected, `${delimiter} ${JSON.stringify(sample)}`);
    }
  }
});

test('parse_kv: pairs, quoted values with escapes, blanks around the delimiter, numerals', () => {
  assert.deepEqual(kv('user=bob, action="log in", port=443'), { user: 'bob', action: 'log in', port: 443 });
  assert.deepEqual(kv('msg="say \\"hi\\"" p="C:\\\\tmp" q="a\\nb"'), { msg: 'say "hi"', p: 'C:\\tmp', q: 'a\\nb' });
  assert.deepEqual(kv('a = 1 b= 2'), { a: 1, b: 2 });
  assert.deepEqual(kv('n=0443 m=-1.5 f=1e3'), { n: '0443', m: -1.5, f: '1e3' });
  assert.deepEqual(kv('a=1 a=2 word'), { a: 2 });
  assert.deepEqual(kv('a=b=c'), { a: 'b=c' });
  assert.deepEqual(kv('a:1 b:2', ':'), { a: 1, b: 2 });
});

test('splitCsv: quotes, doubled quotes, trimming, empty cells', () => {
  assert.deepEqual(splitCsv(' a , "b, c" ,', ','), ['a', 'b, c', '']);
  assert.deepEqual(splitCsv('"say ""hi"""|x', '|'), ['say "hi"', 'x']);
  assert.deepEqual(splitCsv('a::b', '::'), ['a', 'b']);
});
