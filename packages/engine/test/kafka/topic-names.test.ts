import assert from 'node:assert/strict';
import { test } from 'node:test';
import { topicNameProblem, topicNameSchema } from '@weir/contract';
import { compileValidator } from '../../src/validation/json-schema.ts';

test('the JSON Schema of a topic name and topicNameProblem agree (Kafka: `.` and `..` are not topic names)', () => {
  const validate = compileValidator(topicNameSchema);
  for (const name of [
    'a',
    'weir_alerts',
    'A.b-c_9',
    'x'.repeat(249),
    '...',
    '.a',
    'a.',
    '',
    '.',
    '..',
    'x'.repeat(250),
    'a b',
    'a/b',
    'ä',
    'a:b',
  ]) {
    assert.equal(validate(name).length === 0, topicNameProblem(name) === undefined, JSON.stringify(name));
  }
  assert.deepEqual(validate('..'), ['(record): must not be "." or ".."']);
  assert.deepEqual(validate('a b'), ['(record): "a b" does not match ^[A-Za-z0-9._-]{1,249}$']);
});
