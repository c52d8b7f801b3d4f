import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Notifier } from '@weir/contract';
import { matcherSummary, notifierDraft, notifierRequest } from '../../src/pages/notifier-form.ts';

const stored: Notifier = {
  id: 'soc',
  name: 'SOC',
  url: 'https://hooks.example/soc',
  matcher: { minSeverity: 'high', techniques: ['T1110'] },
  rateLimitPerMinute: 30,
  enabled: true,
  secretSet: true,
};

test('a new notifier: every alert, 60 a minute, enabled; the request carries id and secret', () => {
  const d = { ...notifierDraft(undefined), id: ' soc ', name: 'SOC', url: 'https://x/y ', secret: 's'.repeat(16) };
  assert.deepEqual(notifierRequest(d, true), {
    id: 'soc',
    name: 'SOC',
    url: 'https://x/y',
    matcher: {},
    rateLimitPerMinute: 60,
    enabled: true,
    secret: 's'.repeat(16),
  });
});

test('an edit without a typed secret keeps the stored one (no secret sent); the matcher as it was', () => {
  const d = notifierDraft(stored);
  assert.deepEqual(notifierRequest(d, false), {
    name: 'SOC',
    url: 'https://hooks.example/soc',
    matcher: { minSeverity: 'high', techniques: ['T1110'] },
    rateLimitPerMinute: 30,
    enabled: true,
  });
  assert.equal(
    (notifierRequest({ ...d, secret: 'n'.repeat(16) }, false) as { secret?: string }).secret,
    'n'.repeat(16),
  );
});

test('the matcher in words', () => {
  assert.equal(matcherSummary({}), 'every alert');
  assert.equal(
    matcherSummary({ minSeverity: 'high', rules: ['r1', 'r2'], techniques: ['T1110'] }),
    'high or above · rules r1, r2 · T1110',
  );
});
