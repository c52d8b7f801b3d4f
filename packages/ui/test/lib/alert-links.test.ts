import assert from 'node:assert/strict';
import { test } from 'node:test';
import { silenceSimilarUrl, sourceUrl } from '../../src/lib/alert-links.ts';

test('"silence similar" names the rule and the entity; the source link names topic, partition and offset', () => {
  assert.equal(
    silenceSimilarUrl({ rule: { id: 'failed-login', name: null } }, [{ path: 'user', value: 'alice=1' }]),
    '/silences/new?match=_rule.id%3Dfailed-login&match=user%3Dalice%3D1',
  );
  assert.equal(silenceSimilarUrl({ rule: { id: null, name: null } }, []), '/silences/new?');
  assert.equal(sourceUrl({ topic: 'auth', partition: 2, offset: 52 }), '/messages?topic=auth&partition=2&offset=52');
  assert.equal(sourceUrl(null), undefined);
  assert.equal(sourceUrl({ topic: 'auth' }), undefined);
});
