import assert from 'node:assert/strict';
import { test } from 'node:test';
import { severityCounts } from '../../src/lib/severity-counts.ts';

test('the groups by severity become five counts, most severe first, 0 where none', () => {
  assert.deepEqual(
    severityCounts([
      { key: 'low', count: 3, firstSeen: 1, lastSeen: 2 },
      { key: 'critical', count: 1, firstSeen: 1, lastSeen: 1 },
      { key: null, count: 9, firstSeen: 1, lastSeen: 1 },
    ]),
    [
      { severity: 'critical', count: 1 },
      { severity: 'high', count: 0 },
      { severity: 'medium', count: 0 },
      { severity: 'low', count: 3 },
      { severity: 'informational', count: 0 },
    ],
  );
});
