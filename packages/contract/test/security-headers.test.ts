import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as contract from '@weir/contract';
import { fixedHeaders, hstsHeader } from '../src/security-headers.ts';

test('the fixed headers are the spec’s (Conventions), name for name and value for value', () => {
  assert.deepEqual(fixedHeaders, {
    'x-content-type-options': 'nosniff',
    'x-xss-protection': '1; mode=block',
    'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
    pragma: 'no-cache',
    expires: '0',
    'x-frame-options': 'DENY',
  });
  assert.deepEqual(hstsHeader, { 'strict-transport-security': 'max-age=31536000 ; includeSubDomains' });
});

test('header names are lower case, as Node hands them out and as the servers set them', () => {
  for (const name of [...Object.keys(fixedHeaders), ...Object.keys(hstsHeader)]) assert.equal(name, name.toLowerCase());
});

test('@weir/contract exports this module’s objects themselves, the one source for the engine and the UI server', () => {
  assert.equal(contract.fixedHeaders, fixedHeaders);
  assert.equal(contract.hstsHeader, hstsHeader);
});
