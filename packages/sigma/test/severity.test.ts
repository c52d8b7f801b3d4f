import assert from 'node:assert/strict';
import { test } from 'node:test';
import { convertSigma, parseMapping } from '../src/index.ts';

/** Sigma's `level` becomes the Weir rule's severity (docs/sigma.md, "Severity"). */
const mapping = parseMapping('name: t\nunmappedLogsource: warn\n');
const levelWarnings = (ws: readonly string[]) => ws.filter((w) => w.startsWith('level'));
const rule = (level: string | null, more = '') =>
  `title: t\nid: 6f3e2a11-1c2d-4e5f-8a9b-0c1d2e3f4a5b\n${level === null ? '' : `level: ${level}\n`}logsource: {product: x}\ndetection:\n  s:\n    A: 1\n  condition: s\n${more}`;

test('each of the five levels, in any case, is the severity', () => {
  for (const [level, severity] of [
    ['informational', 'informational'],
    ['low', 'low'],
    ['Medium', 'medium'],
    ['HIGH', 'high'],
    ['critical', 'critical'],
  ]) {
    const [r] = convertSigma(rule(level), { mapping });
    assert.equal(r?.status, 'converted');
    if (r?.status !== 'converted') return;
    assert.equal(r.rule.severity, severity, level);
    assert.deepEqual(levelWarnings(r.warnings), []);
  }
});

test('no level: no severity of its own (the default applies); an unknown level: none and a warning naming it', () => {
  const [none] = convertSigma(rule(null), { mapping });
  assert.ok(none?.status === 'converted' && !('severity' in none.rule));
  const [odd] = convertSigma(rule('severe'), { mapping });
  assert.ok(odd?.status === 'converted');
  if (odd?.status !== 'converted') return;
  assert.equal('severity' in odd.rule, false);
  assert.deepEqual(levelWarnings(odd.warnings), [
    "level 'severe' is not one of Sigma's levels (informational, low, medium, high, critical): the rule's severity is the default, medium",
  ]);
});

test("a correlation rule's level is its severity", () => {
  const text = `${rule('low')}---\ntitle: many\nid: 0a1b2c3d-1c2d-4e5f-8a9b-0c1d2e3f4a5b\nlevel: critical\ncorrelation:\n  type: event_count\n  rules: [6f3e2a11-1c2d-4e5f-8a9b-0c1d2e3f4a5b]\n  group-by: [User]\n  timespan: 5m\n  condition: {gte: 10}\n`;
  const results = convertSigma(text, { mapping });
  const correlation = results.find((r) => r.status === 'converted' && r.kind === 'correlation');
  assert.ok(correlation?.status === 'converted');
  if (correlation?.status !== 'converted') return;
  assert.equal(correlation.rule.severity, 'critical');
});
