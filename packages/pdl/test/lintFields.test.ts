import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProducedFields, SampledFields } from '../src/lintFields.ts';

test('sampled fields enter objects, not arrays; produced fields cover parents and children', () => {
  const s = new SampledFields([{ a: { b: 1, 'odd key': 2 }, list: [{ c: 1 }] }, 5]);
  assert.equal(s.events, 1);
  assert.equal(s.has(['a', 'b']), true);
  assert.equal(s.has(['a']), true);
  assert.equal(s.has(['list', 'c']), false);
  assert.deepEqual([...s.writable()], ['a', 'a.b', 'list']);
  const p = new ProducedFields();
  p.add(['x', 'y']);
  assert.deepEqual([p.has(['x']), p.has(['x', 'y', 'z']), p.has(['x', 'q'])], [true, true, false]);
});
