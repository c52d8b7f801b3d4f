import assert from 'node:assert/strict';
import { test } from 'node:test';
import { notifiedAlert, type NotifiedAlert } from '../../src/notify/matcher.ts';
import { noAlertSilenced } from '../../src/notify/silences.ts';

test('until silences are wired in, no alert is silenced', () => {
  const alert = notifiedAlert({ _alert: { id: 'x', severity: 'critical', techniques: [] } }) as NotifiedAlert;
  assert.equal(noAlertSilenced(alert, Date.now()), false);
});
