import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ErrorObject } from 'ajv';
import { violationError } from '../../src/http/request-violations.ts';
import { compiledSchema } from '../../src/validation/json-schema.ts';

const query = {
  type: 'object',
  properties: {
    index: { type: 'integer', minimum: 0, maximum: 1000, title: 'the first message to return' },
    offset: { type: 'string', enum: ['earliest', 'latest'] },
    dryRun: { type: 'boolean' },
  },
  additionalProperties: false,
};
const body = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };

function errorsOf(schema: object, part: string, value: Record<string, unknown>): ErrorObject[] {
  const validate = compiledSchema(schema, part);
  assert.equal(validate(value), false);
  return validate.errors ?? [];
}

test('a query value of the wrong type or range: one message saying what was found, no list', () => {
  const bad = (value: Record<string, unknown>) =>
    violationError(errorsOf(query, 'querystring', value), 'querystring').body;
  const badRequest = { status: 'BAD_REQUEST', message: 'Resource validation failed' };
  assert.deepEqual(bad({ index: 'x' }), {
    ...badRequest,
    debugMessage: "querystring.index must be an integer >= 0 (the first message to return), found 'x'",
  });
  assert.deepEqual(bad({ index: '-2' }), {
    ...badRequest,
    debugMessage: "querystring.index must be an integer >= 0 (the first message to return), found '-2'",
  });
  assert.deepEqual(bad({ index: '1001' }), {
    ...badRequest,
    debugMessage: "querystring.index must be an integer <= 1000 (the first message to return), found '1001'",
  });
  assert.deepEqual(bad({ offset: 'middle' }), {
    ...badRequest,
    debugMessage: "querystring.offset must be earliest or latest, found 'middle'",
  });
  assert.deepEqual(bad({ dryRun: 'yes' }), {
    ...badRequest,
    debugMessage: "querystring.dryRun must be true or false, found 'yes'",
  });
  const extra = "querystring must NOT have additional properties 'page'";
  assert.deepEqual(bad({ page: '2' }), { ...badRequest, debugMessage: extra, errors: [extra] });
});

test('the query validator types the text it accepts', () => {
  const value: Record<string, unknown> = { index: '12', dryRun: 'true' };
  assert.equal(compiledSchema(query, 'querystring')(value), true);
  assert.deepEqual(value, { index: 12, dryRun: true });
});

test('any other part: every violation, in the message and in errors', () => {
  const error = violationError(errorsOf(body, 'body', { name: 1 }), 'body');
  assert.equal(error.httpStatus, 400);
  assert.deepEqual(error.body, {
    status: 'BAD_REQUEST',
    message: 'Resource validation failed',
    debugMessage: 'body.name must be string',
    errors: ['body.name must be string'],
  });
});
