import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDomainError } from '../../src/core/errors.ts';
import { instantMs, queryInstant } from '../../src/core/instant.ts';

test('an ISO 8601 date-time or epoch milliseconds (a number or digits); anything else is NaN', () => {
  assert.equal(instantMs('2026-11-23T06:00:00Z'), Date.UTC(2026, 10, 23, 6));
  assert.equal(instantMs('2026-11-23T07:00:00+01:00'), Date.UTC(2026, 10, 23, 6));
  assert.equal(instantMs('1700000000000'), 1_700_000_000_000);
  assert.equal(instantMs(42), 42);
  for (const bad of ['yesterday', 'Nov 23 2026', '-5', '12.5', '2026-13-45T00:00:00Z'])
    assert.ok(Number.isNaN(instantMs(bad)), bad);
});

test('a query time: absent is undefined; a bad one is VALIDATION naming the parameter and the text', () => {
  assert.equal(queryInstant('from', undefined), undefined);
  assert.equal(queryInstant('from', '5'), 5);
  assert.throws(
    () => queryInstant('to', 'soon'),
    (e: unknown) =>
      isDomainError(e) &&
      e.code === 'VALIDATION' &&
      String(e.args[0]) ===
        "query.to must be an ISO 8601 date-time (2026-11-23T06:00:00Z) or milliseconds since the epoch; got 'soon'",
  );
});
