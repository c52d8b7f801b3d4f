import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiError, domainError, withDetails } from '../../src/core/errors.ts';
import { answerOf, domainAnswer } from '../../src/http/error-map.ts';

const kind = { one: 'pipeline', many: 'pipelines' };

test('a domain error is answered with its catalog entry: status, message and text', () => {
  const answer = domainAnswer(domainError('RESOURCE_EXISTS', kind));
  assert.equal(answer.httpStatus, 409);
  assert.deepEqual(answer.body, {
    status: 'CONFLICT',
    message: 'Resource already exists',
    debugMessage: 'Pipeline already exists, can not create a new one. Please use update (PUT) endpoint.',
  });
  assert.deepEqual(answer.body, apiError('RESOURCE_EXISTS', kind).body);
});

test('details are kept, and the domain error says its text as its message', () => {
  const error = withDetails(domainError('BULK_INVALID', kind), [{ index: 1, errors: ['id: is required'] }]);
  assert.equal(error.message, 'Unable to bulk update pipelines due to invalid input.');
  assert.deepEqual(domainAnswer(error).body, {
    status: 'BAD_REQUEST',
    message: 'Resource validation failed',
    debugMessage: 'Unable to bulk update pipelines due to invalid input.',
    errors: [{ index: 1, errors: ['id: is required'] }],
  });
});

test('answerOf: an API error as it is, a domain error mapped, anything else none', () => {
  const api = apiError('ENGINE_NOT_STOPPED', 'RUNNING');
  assert.equal(answerOf(api), api);
  assert.deepEqual(answerOf(domainError('ENGINE_NOT_STOPPED', 'RUNNING'))?.body, api.body);
  assert.equal(answerOf(new Error('boom')), undefined);
});
