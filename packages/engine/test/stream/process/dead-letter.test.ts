import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deadLetterRecord, deadLetterTopic } from '../../../src/stream/process/dead-letter.ts';

const source = {
  topic: 'in',
  partition: 2,
  offset: 41n,
  key: Buffer.from('k'),
  value: Buffer.from([0xff, 0x00]),
  timestamp: 1000n,
};
const headers = (record: ReturnType<typeof deadLetterRecord>) =>
  Object.fromEntries([...(record.headers as Map<Buffer, Buffer>)].map(([k, v]) => [k.toString(), v.toString()]));

test("a dead letter is the input record's bytes, untouched, on <input>-dlq with headers naming its cause", () => {
  const record = deadLetterRecord(source, { topology: 't', task: 'parse', error: 'bad' });
  assert.equal(deadLetterTopic('in'), 'in-dlq');
  assert.deepEqual(
    [record.topic, record.key, record.value, record.timestamp],
    ['in-dlq', source.key, source.value, 1000n],
  );
  assert.deepEqual(headers(record), {
    'weir.topology': 't',
    'weir.task': 'parse',
    'weir.error': 'bad',
    'weir.source': 'in/2/41',
  });
});

test('a repartition record dead-letters to its topology input; a long error is cut at 4000 characters', () => {
  const record = deadLetterRecord(
    { ...source, value: undefined, deadLetterTo: 'raw-dlq' },
    { topology: 't', task: 'x', error: 'e'.repeat(5000) },
  );
  assert.equal(record.topic, 'raw-dlq');
  assert.deepEqual(record.value, Buffer.alloc(0));
  assert.equal(headers(record)['weir.error']!.length, 4000);
});
