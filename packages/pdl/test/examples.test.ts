// The worked examples at the end of pdl.md, verbatim.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../src/index.ts';

const event = JSON.parse(
  '{"user": "bob", "port": "443", "tags": ["vpn", "ext"], "proc": {"path": "C:\\\\Tools\\\\nc.exe"}}',
) as Record<string, unknown>;
const original = structuredClone(event);

describe('pdl.md worked examples', () => {
  test('port=443 AND tags ?= "vpn" -> the event', () => {
    assert.deepEqual(compile('port=443 AND tags ?= "vpn"').run(event), event);
  });

  test('proc.path="*\\\\nc.exe" | eval risk=if(port>1024, "low", "high"), who=upper(user)', () => {
    assert.deepEqual(
      compile('proc.path="*\\\\nc.exe" | eval risk=if(port>1024, "low", "high"), who=upper(user)').run(event),
      {
        ...event,
        risk: 'high',
        who: 'BOB',
      },
    );
  });

  test('user IN ["alice", "carol"] -> no result', () => {
    assert.equal(compile('user IN ["alice", "carol"]').run(event), null);
  });

  test('rename proc.path AS image | fields keep image, user', () => {
    assert.deepEqual(
      compile('rename proc.path AS image | fields keep image, user').run(event),
      JSON.parse('{"image": "C:\\\\Tools\\\\nc.exe", "user": "bob"}'),
    );
  });

  test('NOT (tags ?= "int") | flatten', () => {
    assert.deepEqual(
      compile('NOT (tags ?= "int") | flatten').run(event),
      JSON.parse(
        '{"user": "bob", "port": "443", "tags_0": "vpn", "tags_1": "ext", "proc_path": "C:\\\\Tools\\\\nc.exe"}',
      ),
    );
  });

  test('the input event is never modified', () => {
    assert.deepEqual(event, original);
  });
});
