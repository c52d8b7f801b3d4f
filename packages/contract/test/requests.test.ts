import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  auditQuery,
  idParams,
  lookupUpload,
  sigmaImportBody,
  sigmaImportJson,
  sigmaImportQuery,
  tailQuery,
} from '../src/requests.ts';
import { violationsOf } from './helpers/ajv.ts';

test('path parameters are text; tail queries are typed (the API coerces the text): integers >= 0, known words', () => {
  assert.deepEqual(violationsOf(idParams)({ id: '007' }), []);
  assert.deepEqual(violationsOf(idParams)({ id: 7 }), ['/id type']);
  const tail = violationsOf(tailQuery);
  assert.deepEqual(tail({ offset: 'earliest', startOffset: 12, partition: 0, maxSeconds: 30 }), []);
  assert.deepEqual(tail({ startTimestamp: '1700000000000' }), ['/startTimestamp type']);
  assert.deepEqual(tail({ offset: 'middle', partition: -1, maxSeconds: 1e16 }), [
    '/offset enum',
    '/partition minimum',
    '/maxSeconds maximum',
  ]);
  assert.deepEqual(tail({ keyDeserializer: 'org.apache.kafka.common.serialization.LongDeserializer' }), []);
  assert.deepEqual(tail({ valueDeserializer: 'Long' }), ['/valueDeserializer enum']);
  assert.deepEqual(Object.keys(tailQuery.properties), [
    'offset',
    'startOffset',
    'startTimestamp',
    'partition',
    'maxSeconds',
    'keyDeserializer',
    'valueDeserializer',
  ]);
});

test('the audit query: bounded texts, integer offset and limit, no unknown parameter', () => {
  const validate = violationsOf(auditQuery);
  assert.deepEqual(validate({}), []);
  assert.deepEqual(validate({ user: 'admin', kind: 'rules', id: 'r-1', from: '2026-01-01', offset: 0, limit: 50 }), []);
  assert.deepEqual(validate({ offset: -1, limit: 1_000_000_000 }), ['/offset minimum', '/limit maximum']);
  assert.deepEqual(validate({ offset: '0' }), ['/offset type']);
  assert.deepEqual(validate({ user: 'x'.repeat(257) }), ['/user maxLength']);
  assert.deepEqual(validate({ page: '2' }), ['/ additionalProperties']);
});

test('a lookup upload names the id part on create only, and the file part always', () => {
  assert.deepEqual(Object.keys(lookupUpload(true).properties), ['id', 'file']);
  assert.deepEqual(Object.keys(lookupUpload(false).properties), ['file']);
  assert.equal(lookupUpload(false).properties.file.format, 'binary');
  assert.deepEqual(lookupUpload(true).required, ['id', 'file']);
  assert.deepEqual(lookupUpload(false).required, ['file']);
});

test('the Sigma import: JSON with its yaml required and the options typed; the text form takes them in the query', () => {
  const json = violationsOf(sigmaImportJson);
  assert.deepEqual(json({ yaml: 'title: x', mapping: 'evtx-json', dryRun: true, license: null }), []);
  assert.deepEqual(json({ mapping: 'evtx-json', dryRun: 'yes' }).sort(), ['/ required', '/dryRun type']);
  assert.deepEqual(violationsOf(sigmaImportBody)('title: x'), []);
  assert.deepEqual(Object.keys(sigmaImportQuery.properties), ['mapping', 'dryRun', 'license']);
});
