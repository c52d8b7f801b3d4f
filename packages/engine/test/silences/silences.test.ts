import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { isDomainError } from '../../src/core/errors.ts';
import { Silences } from '../../src/silences/silences.ts';
import { SqliteConfigStore } from '../../src/store/sqlite-store.ts';

const t0 = Date.parse('2026-11-23T06:00:00.000Z');
const hour = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const matchers = [{ field: '_rule.id', op: '=' as const, value: 'failed-login' }];

/** A Silences on a real SQLite store in a temporary directory, with a clock the test moves. */
function fixture() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-silences-'));
  const clock = { now: t0 };
  let store = new SqliteConfigStore(dir);
  let silences = new Silences(store, () => clock.now);
  return {
    clock,
    get silences() {
      return silences;
    },
    reopen() {
      store.close();
      store = new SqliteConfigStore(dir);
      silences = new Silences(store, () => clock.now);
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function refusal(p: Promise<unknown>): Promise<[string, string, unknown]> {
  try {
    await p;
  } catch (err) {
    if (isDomainError(err)) return [err.code, err.message, err.details];
    throw err;
  }
  throw new Error('not refused');
}

test('a silence is pending, then active, then expired, and stays readable; its state follows the clock', async () => {
  const f = fixture();
  try {
    const s = await f.silences.create(
      { matchers, startsAt: iso(t0 + hour), endsAt: t0 + 2 * hour, comment: 'x' },
      'alice',
    );
    assert.deepEqual(s, {
      id: s.id,
      matchers,
      startsAt: '2026-11-23T07:00:00.000Z',
      endsAt: '2026-11-23T08:00:00.000Z',
      comment: 'x',
      createdBy: 'alice',
      createdAt: '2026-11-23T06:00:00.000Z',
      state: 'pending',
    });
    assert.match(s.id, /^[0-9a-f-]{36}$/);
    f.clock.now = t0 + hour;
    assert.equal(f.silences.get(s.id).state, 'active');
    assert.deepEqual(
      f.silences.list('active').map((x) => x.id),
      [s.id],
    );
    assert.deepEqual(f.silences.list('pending'), []);
    f.clock.now = t0 + 2 * hour;
    assert.equal(f.silences.get(s.id).state, 'expired');
    assert.deepEqual(
      f.silences.list('expired').map((x) => x.id),
      [s.id],
    );
    assert.deepEqual(
      f.silences.list().map((x) => x.id),
      [s.id],
    );
  } finally {
    await f.close();
  }
});

test('start defaults to now on create and stays as it was on edit; the end must be later than both', async () => {
  const f = fixture();
  try {
    const s = await f.silences.create({ matchers, endsAt: iso(t0 + hour), comment: 'x' }, 'alice');
    assert.deepEqual([s.startsAt, s.state], [iso(t0), 'active']);
    f.clock.now = t0 + 60_000;
    const edited = await f.silences.update(s.id, { matchers, endsAt: iso(t0 + 3 * hour), comment: 'y' }, 'bob');
    assert.deepEqual(edited, {
      ...s,
      endsAt: iso(t0 + 3 * hour),
      comment: 'y',
      updatedBy: 'bob',
      updatedAt: iso(t0 + 60_000),
    });
    assert.deepEqual(
      await refusal(f.silences.create({ matchers, startsAt: t0 + hour, endsAt: t0 + hour, comment: 'x' }, 'a')),
      [
        'VALIDATION',
        'body.endsAt: must be later than startsAt (2026-11-23T07:00:00.000Z); got 2026-11-23T07:00:00.000Z',
        ['body.endsAt: must be later than startsAt (2026-11-23T07:00:00.000Z); got 2026-11-23T07:00:00.000Z'],
      ],
    );
    const past = 'body.endsAt: must be in the future (now is 2026-11-23T06:01:00.000Z); got 2026-11-23T06:00:30.000Z';
    assert.deepEqual(
      await refusal(f.silences.create({ matchers, startsAt: t0, endsAt: t0 + 30_000, comment: 'x' }, 'a')),
      ['VALIDATION', past, [past]],
    );
    assert.equal(f.silences.list().length, 1, 'nothing stored');
  } finally {
    await f.close();
  }
});

test('expire: an active silence ends now; a pending one starts and ends now; an expired one is refused', async () => {
  const f = fixture();
  try {
    const active = await f.silences.create({ matchers, endsAt: t0 + hour, comment: 'a' }, 'alice');
    const pending = await f.silences.create(
      { matchers, startsAt: t0 + hour, endsAt: t0 + 2 * hour, comment: 'p' },
      'alice',
    );
    f.clock.now = t0 + 1000;
    const ended = await f.silences.expire(active.id, 'bob');
    assert.deepEqual(ended, {
      ...active,
      endsAt: iso(t0 + 1000),
      updatedBy: 'bob',
      updatedAt: iso(t0 + 1000),
      state: 'expired',
    });
    const cancelled = await f.silences.expire(pending.id, 'bob');
    assert.deepEqual(
      [cancelled.startsAt, cancelled.endsAt, cancelled.state],
      [iso(t0 + 1000), iso(t0 + 1000), 'expired'],
    );
    const again = `Silence ${active.id} expired at ${iso(t0 + 1000)}; an expired silence cannot be expired again.`;
    assert.deepEqual(await refusal(f.silences.expire(active.id, 'bob')), ['VALIDATION', again, undefined]);
    const edit = `Silence ${active.id} expired at ${iso(t0 + 1000)}; an expired silence cannot be changed: create a new one.`;
    assert.deepEqual(
      await refusal(f.silences.update(active.id, { matchers, endsAt: t0 + hour, comment: 'z' }, 'bob')),
      ['VALIDATION', edit, undefined],
    );
    assert.deepEqual(f.silences.get(active.id), ended, 'unchanged');
  } finally {
    await f.close();
  }
});

test('unknown ids: RESOURCE_MISSING (read, expire) and RESOURCE_UPDATE_MISSING (edit)', async () => {
  const f = fixture();
  try {
    assert.throws(() => f.silences.get('nope'), {
      code: 'RESOURCE_MISSING',
      message: 'Requested silence does not exist',
    });
    assert.deepEqual(await refusal(f.silences.expire('nope', 'a')), [
      'RESOURCE_MISSING',
      'Requested silence does not exist',
      undefined,
    ]);
    assert.deepEqual(await refusal(f.silences.update('nope', { matchers, endsAt: t0 + hour, comment: 'x' }, 'a')), [
      'RESOURCE_UPDATE_MISSING',
      'Silence to update does not exist. Please use create (POST) endpoint.',
      undefined,
    ]);
  } finally {
    await f.close();
  }
});

test('every violation at once, each naming its field; nothing stored', async () => {
  const f = fixture();
  try {
    const found = await refusal(
      f.silences.create(
        {
          matchers: [
            { field: 'a..b', op: '=', value: 'x' },
            { field: 'user', op: '=~', value: '(' },
            { field: 'user', op: '=', value: '(' },
          ],
          startsAt: 'tomorrow',
          endsAt: '2026-13-45T00:00:00Z',
          comment: 'x',
        },
        'alice',
      ),
    );
    const when =
      'must be an ISO 8601 date-time (2026-11-23T06:00:00Z) or milliseconds since the epoch, from 1970 to 275760';
    const errors = [
      "body.matchers.0.field: 'a..b' is not a field path: keys joined by single dots, none empty (e.g. _rule.id, host.name)",
      'body.matchers.1.value: not a regular expression: Invalid regular expression: /^(?:()$/u: Unterminated group',
      `body.startsAt: ${when}; got 'tomorrow'`,
      `body.endsAt: ${when}; got '2026-13-45T00:00:00Z'`,
    ];
    assert.deepEqual(found, ['VALIDATION', errors.join('; '), errors]);
    assert.deepEqual(f.silences.list(), []);
  } finally {
    await f.close();
  }
});

test('silences survive a restart of the SQLite store', async () => {
  const f = fixture();
  try {
    const s = await f.silences.create({ matchers, endsAt: t0 + hour, comment: 'kept' }, 'alice');
    const ended = await f.silences.create({ matchers, endsAt: t0 + hour, comment: 'ended' }, 'alice');
    await f.silences.expire(ended.id, 'alice');
    f.reopen();
    assert.deepEqual(
      f.silences.list().map((x) => [x.id, x.comment, x.state]),
      [
        [s.id, 'kept', 'active'],
        [ended.id, 'ended', 'expired'],
      ],
    );
  } finally {
    await f.close();
  }
});
