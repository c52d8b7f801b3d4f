import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outputNames, setOutputNames } from '@weir/pdl';
import { withRule } from '../../src/rules/rule-alert.ts';
import type { RuleEntry } from '../../src/rules/rule-book.ts';

const rule: RuleEntry = {
  id: 'failed-logon',
  name: 'Failed logon',
  annotations: ['attack.t1110'],
  pdl: 'action="failed"',
  enabled: true,
  compiled: { hasCorrelation: false, run: () => null, feed: () => [] },
};

test('an alert is a copy of the event with `_rule: {id, name, annotations}`', () => {
  const event = { user: 'bob' };
  assert.deepEqual(withRule(event, rule), {
    user: 'bob',
    _rule: { id: 'failed-logon', name: 'Failed logon', annotations: ['attack.t1110'] },
  });
  assert.deepEqual(event, { user: 'bob' }, 'the event is not changed');
});

test('with weir.output.names=original: the original\'s `padasRule`, missing description and datamodel as ""', (t) => {
  const before = outputNames();
  setOutputNames('original');
  t.after(() => setOutputNames(before));
  assert.deepEqual(withRule({ user: 'bob' }, rule), {
    user: 'bob',
    padasRule: {
      id: 'failed-logon',
      name: 'Failed logon',
      description: '',
      pdl: 'action="failed"',
      annotations: ['attack.t1110'],
      datamodel: '',
    },
  });
});
