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

  test('an unread backlog past half the retention.bytes: one warning per topic, gone when the size limit is', () => {
    const { watch: w, changes } = watch();
    // before the settings are known, no size counts
    assert.equal(w.backlog('in', 0, 1e9, 0n, 100n, now), false);
    w.settings('in', retentionOf({ 'retention.ms': '-1', 'retention.bytes': '4096' }));
    assert.equal(w.backlog('in', 0, 2048, 0n, 100n, now), false, 'half is not more than half');
    assert.equal(w.backlog('in', 1, 20_480, 5n, 105n, now), true);
    assert.equal(w.backlog('in', 0, 3000, 0n, 100n, now), true);
    assert.equal(changes.length, 1);
    assert.deepEqual(w.warnings(), [
      {
        kind: 'RECORDS_NEAR_RETENTION_BYTES',
        topic: 'in',
        topologies: [3],
        message:
          'Topic in keeps at most 4.0 KiB per partition (retention.bytes=4096), and in/1 holds about 20.0 KiB ' +
          '(20480 bytes, offsets 5 to 104) that Weir has not read yet, more than half of it: once the partition is past ' +
          'the limit the broker deletes its oldest segments, read or not, so records not read yet can vanish without being processed.',
        fix:
          'Set retention.bytes=-1 on topic in (or a size limit well above what Weir has left to read): ' +
          'kafka-configs.sh --bootstrap-server <broker> --alter --entity-type topics --entity-name in --add-config retention.bytes=-1. ' +
          'New topics for replays: create them with retention.ms=-1 (POST /api/topics with "options": {"retention.ms": "-1"}).',
        since: '2026-11-26T12:00:00.000Z',
      },
    ]);
    // a change of retention.ms alone keeps it; retention.bytes=-1 (or no delete policy) removes it
    w.settings('in', retentionOf({ 'retention.ms': String(hour), 'retention.bytes': '4096' }));
    assert.equal(w.warnings().length, 1);
    w.settings('in', retentionOf({ 'retention.ms': String(hour), 'retention.bytes': '-1' }));
    assert.deepEqual(w.warnings(), []);
    assert.deepEqual(changes.at(-1), []);
    assert.equal(w.backlog('in', 0, 1e9, 0n, 100n, now), false);
    w.settings('c', retentionOf({ 'retention.bytes': '10', 'cleanup.policy': 'compact' }));
    assert.equal(w.backlog('c', 0, 1e9, 0n, 100n, now), false);
  });
});
