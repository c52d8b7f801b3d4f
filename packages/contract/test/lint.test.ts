import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintResult, lintSample, pdlLintBody, sigmaLintBody, taskLintBody } from '../src/index.ts';

test('the lint schemas: a result lists diagnostics with their counts; bodies name what they need', () => {
  const result = lintResult as { required?: string[]; properties: Record<string, { items?: { required?: string[] } }> };
  assert.deepEqual(Object.keys(result.properties), ['errors', 'warnings', 'infos', 'diagnostics']);
  assert.deepEqual(pdlLintBody.required, ['pdl']);
  assert.deepEqual(taskLintBody.required, ['function']);
  assert.equal(sigmaLintBody.anyOf[0].type, 'string');
});

test('POST /api/lint/pdl: events, or a topic with a bounded sample size', () => {
  assert.deepEqual(Object.keys(pdlLintBody.properties), ['pdl', 'events', 'topic', 'sample']);
  assert.deepEqual(lintSample, { default: 100, max: 1000 });
  assert.deepEqual([pdlLintBody.properties.sample.minimum, pdlLintBody.properties.sample.maximum], [1, lintSample.max]);
});
