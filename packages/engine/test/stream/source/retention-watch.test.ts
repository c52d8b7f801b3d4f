import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  retentionFix,
  retentionOf,
  RetentionWatch,
  type RetentionWarning,
} from '../../../src/stream/source/retention-watch.ts';

const hour = 3_600_000;
const now = Date.parse('2026-11-26T12:00:00.000Z');

function watch(): { watch: RetentionWatch; changes: RetentionWarning[][] } {
  const changes: RetentionWarning[][] = [];
  return {
    watch: new RetentionWatch(
      () => [3],
      (w) => changes.push(w),
    ),
    changes,
  };
}

describe('RetentionWatch: input topics whose retention deletes records before they are read', () => {
  test("a topic's settings: Kafka's defaults when not named; compact alone does not delete", () => {
    assert.deepEqual(retentionOf({}), { retentionMs: 604_800_000, retentionBytes: -1, deletes: true });
    assert.deepEqual(retentionOf({ 'retention.ms': '-1', 'retention.bytes': '1024', 'cleanup.policy': 'compact' }), {
      retentionMs: -1,
      retentionBytes: 1024,
      deletes: false,
    });
    assert.equal(retentionOf({ 'cleanup.policy': 'compact,delete' }).deletes, true);
  });

  test('records older than half the retention.ms: one warning per topic, every such record counted', () => {
    const { watch: w, changes } = watch();
    w.settings('in', retentionOf({ 'retention.ms': String(24 * hour) }));
    assert.equal(w.record('in', 0, 0n, BigInt(now - 11 * hour), now), false);
    assert.equal(w.record('in', 0, 1n, BigInt(now - 13 * hour), now), true);
    assert.equal(w.record('in', 1, 9n, BigInt(now - 30 * hour), now), true);
    assert.equal(changes.length, 1);
    assert.deepEqual(w.warnings(), [
      {
        kind: 'RECORDS_NEAR_RETENTION',
        topic: 'in',
        topologies: [3],
        message:
          'Topic in keeps records 24 h (retention.ms=86400000), and Weir reads records 13 h old (in/0 offset 1, ' +
          'timestamp 2026-11-25T23:00:00.000Z): records that old are deleted within 11 h, read or not, so records ' +
          'not read yet can vanish without being processed.',
        fix: retentionFix('in', retentionOf({ 'retention.ms': String(24 * hour) }), 'RECORDS_NEAR_RETENTION'),
        since: '2026-11-26T12:00:00.000Z',
      },
    ]);
  });

  test('no time limit, or no delete policy: nothing, and a warning goes when the limit does', () => {
    const { watch: w, changes } = watch();
    w.settings('in', retentionOf({ 'retention.ms': String(hour) }));
    assert.equal(w.record('in', 0, 0n, 0n, now), true);
    w.settings('in', retentionOf({ 'retention.ms': '-1' }));
    assert.deepEqual(w.warnings(), []);
    assert.deepEqual(changes.at(-1), []);
    assert.equal(w.record('in', 0, 1n, 0n, now), false);
    w.settings('c', retentionOf({ 'cleanup.policy': 'compact' }));
    assert.equal(w.record('c', 0, 0n, 0n, now), false);
    assert.equal(w.record('unknown', 0, 0n, 0n, now), false);
    w.settings('v0', retentionOf({ 'retention.ms': String(hour) }));
    assert.equal(w.record('v0', 0, 0n, -1n, now), false, 'a record without a timestamp');
  });

  test('records deleted unread: counted each time, warned about once per topic; the fix names retention.bytes when set', () => {
    const { watch: w, changes } = watch();
    const retention = retentionOf({ 'retention.ms': '-1', 'retention.bytes': '1048576' });
    w.settings('in', retention);
    assert.equal(w.deleted('in', 0, 10n, 10n, now), 0);
    assert.equal(w.deleted('in', 0, 10n, 14n, now), 4);
    assert.equal(w.deleted('in', 1, 0n, 2n, now), 2);
    assert.equal(changes.length, 1);
    const [warning] = w.warnings();
    assert.equal(
      warning!.message,
      "4 record(s) of in/0 (offsets 10 to 13) were deleted by the broker before Weir read them: the partition now starts at offset 14, Weir's next offset was 10. " +
        "The topic's retention (retention.ms=-1, retention.bytes=1048576, cleanup.policy deletes) deleted them; Weir cannot process what the broker deleted.",
    );
    assert.equal(
      warning!.fix,
      'Set retention.ms=-1 and retention.bytes=-1 on topic in (or limits that keep records until Weir has read them): ' +
        'kafka-configs.sh --bootstrap-server <broker> --alter --entity-type topics --entity-name in --add-config retention.ms=-1,retention.bytes=-1, ' +
        'then produce the deleted records again. New topics for replays: create them with retention.ms=-1 (POST /api/topics with "options": {"retention.ms": "-1"}).',
    );
    w.clear();
    assert.deepEqual(w.warnings(), []);
  });
});
