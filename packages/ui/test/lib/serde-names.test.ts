import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serdeOptions, shortSerde } from '../../src/lib/serde-names.ts';

const pkg = 'org.apache.kafka.common.serialization';

test('a serde class reads as its short name: after the last dot and dollar', () => {
  assert.equal(shortSerde(`${pkg}.Serdes$StringSerde`), 'StringSerde');
  assert.equal(shortSerde(`${pkg}.Serdes$ByteArraySerde`), 'ByteArraySerde');
  assert.equal(shortSerde('com.example.MySerde'), 'MySerde');
  assert.equal(shortSerde('PlainSerde'), 'PlainSerde');
  assert.equal(
    shortSerde('com.example.'),
    'com.example.',
    'a name ending in a dot stays whole (nothing after it to show)',
  );
});

test("a select's options keep the full class as the value and show the short name", () => {
  assert.deepEqual(serdeOptions([`${pkg}.Serdes$StringSerde`, `${pkg}.Serdes$LongSerde`]), [
    { value: `${pkg}.Serdes$StringSerde`, label: 'StringSerde' },
    { value: `${pkg}.Serdes$LongSerde`, label: 'LongSerde' },
  ]);
});
