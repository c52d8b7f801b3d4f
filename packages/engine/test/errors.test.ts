import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { apiError, errorCatalog, isApiError } from '../src/errors.ts';

test('the spec texts come out of the registry exactly', () => {
  const kind = { one: 'pipeline', many: 'pipelines' };
  assert.deepEqual(apiError('RESOURCE_EXISTS', kind).body, { status: 'CONFLICT', message: 'Resource already exists',
    debugMessage: 'Pipeline already exists, can not create a new one. Please use update (PUT) endpoint.' });
  assert.equal(apiError('RESOURCE_MISSING', kind).body.debugMessage, 'Requested pipeline does not exist');
  assert.equal(apiError('RESOURCE_UPDATE_MISSING', kind).body.debugMessage, 'Pipeline to update does not exist. Please use create (POST) endpoint.');
  assert.equal(apiError('RESOURCE_DELETE_MISSING', kind).body.debugMessage, 'Pipeline to delete does not exist.');
  assert.equal(apiError('BULK_INVALID', kind).body.debugMessage, 'Unable to bulk update pipelines due to invalid input.');
  assert.equal(apiError('ENGINE_NOT_STOPPED', 'RUNNING').body.debugMessage, 'Unable to start engine, please stop it properly. Current state is RUNNING');
  assert.equal(apiError('TOPIC_INVALID', 'x').body.debugMessage, 'Unable to create Kafka topic, error(s) in validating schema -- [x]');
  assert.equal(apiError('NODE_MISSING').httpStatus, 404);
  assert.ok(isApiError(apiError('USER_MISSING')));
  assert.ok(!isApiError(new Error('x')));
});

test('docs/api.md names every error code', () => {
  const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  for (const code of Object.keys(errorCatalog)) assert.ok(doc.includes(`\`${code}\``), `docs/api.md does not name ${code}`);
});
