import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maxTopicNameLength, topicNameProblem, topicNameSchema } from '../src/topic-names.ts';
import { violationsOf } from './helpers/ajv.ts';

test("Kafka's topic names are legal: 1 to 249 ASCII letters, digits, '.', '_' and '-'", () => {
  assert.equal(maxTopicNameLength, 249);
  for (const name of ['a', 'weir_alerts', 'A.b-c_9', '...', '.a', 'a.', 'x'.repeat(249)])
    assert.equal(topicNameProblem(name), undefined, name);
});

test('topicNameProblem says what is wrong with a name', () => {
  assert.equal(topicNameProblem(''), 'must not be empty');
  assert.equal(topicNameProblem('.'), "must not be '.' or '..'");
  assert.equal(topicNameProblem('..'), "must not be '.' or '..'");
  assert.equal(topicNameProblem('x'.repeat(250)), 'is 250 characters long; at most 249 are allowed');
  assert.equal(topicNameProblem('a b'), "'a b' contains characters other than ASCII letters, digits, '.', '_' and '-'");
  assert.equal(topicNameProblem('ä'), "'ä' contains characters other than ASCII letters, digits, '.', '_' and '-'");
});

test('the JSON Schema of a topic name and topicNameProblem agree (Kafka: `.` and `..` are not topic names)', () => {
  const validate = violationsOf(topicNameSchema);
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
  assert.deepEqual(validate('..'), ['/ not']);
  assert.deepEqual(validate('a b'), ['/ pattern']);
});
