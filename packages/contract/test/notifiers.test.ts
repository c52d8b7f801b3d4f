import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newNotifierBody, notifierSchema, notifierUpdateBody } from '../src/notifiers.ts';
import { violationsOf } from './helpers/ajv.ts';

const hook = {
  id: 'soc-webhook',
  name: 'SOC webhook',
  url: 'https://hooks.example.com/weir',
  secret: 'a-secret-of-16-chars',
  matcher: { minSeverity: 'high', rules: ['failed-login'], techniques: ['T1110', 't1059.001'] },
  rateLimitPerMinute: 30,
  enabled: true,
};

test('a new notifier: id, name, url and a secret of at least 16 characters; the rest optional', () => {
  const validate = violationsOf(newNotifierBody);
  assert.deepEqual(validate(hook), []);
  assert.deepEqual(validate({ id: 'n', name: 'N', url: 'https://x', secret: 's'.repeat(16) }), []);
  assert.deepEqual(validate({ ...hook, secret: 'short' }), ['/secret minLength']);
  const { secret: _secret, ...withoutSecret } = hook;
  assert.deepEqual(validate(withoutSecret), ['/ required']);
  assert.deepEqual(validate({ ...hook, rateLimitPerMinute: 0 }), ['/rateLimitPerMinute minimum']);
  assert.deepEqual(validate({ ...hook, secretSet: true }), ['/ additionalProperties']);
});

test('a matcher: a known severity, non-empty lists, technique ids only', () => {
  const validate = violationsOf(newNotifierBody);
  assert.deepEqual(validate({ ...hook, matcher: {} }), []);
  assert.deepEqual(validate({ ...hook, matcher: { minSeverity: 'severe' } }), ['/matcher/minSeverity enum']);
  assert.deepEqual(validate({ ...hook, matcher: { rules: [] } }), ['/matcher/rules minItems']);
  assert.deepEqual(validate({ ...hook, matcher: { techniques: ['brute force'] } }), ['/matcher/techniques/0 pattern']);
  assert.deepEqual(validate({ ...hook, matcher: { severity: 'high' } }), ['/matcher additionalProperties']);
});

test('an update may leave out the id and the secret; an answer has secretSet and no secret', () => {
  const { id: _id, secret: _secret, ...rest } = hook;
  assert.deepEqual(violationsOf(notifierUpdateBody)(rest), []);
  const answer = { ...rest, id: 'soc-webhook', secretSet: true };
  assert.deepEqual(violationsOf(notifierSchema)(answer), []);
  assert.deepEqual(violationsOf(notifierSchema)({ ...answer, secret: 'x'.repeat(16) }), ['/ additionalProperties']);
});
