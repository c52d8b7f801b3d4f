import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TaskIdentity } from '../../src/tasks/task-function.ts';
import { T0, errorOf, makeTask, run, single, value, violations } from './task-harness.ts';

const utc = (iso: string): number => Date.parse(iso);

function parsed(format: string, text: unknown, now = Date.UTC(2024, 5, 1)): number {
  const task = makeTask('TIMESTAMP', { field: 't', format }, { now: () => now });
  return single(run(task, { t: text })).timestamp;
}

test("default format yyyy-MM-dd'T'HH:mm:ss.SSSZ: _time and record timestamp from the field", () => {
  const task = makeTask('TIMESTAMP', { field: 'time' });
  const out = single(run(task, { time: '2023-04-05T06:07:08.123+0200', user: 'bob' }));
  assert.deepEqual(out, {
    value: { time: '2023-04-05T06:07:08.123+0200', user: 'bob', _time: utc('2023-04-05T04:07:08.123Z') },
    timestamp: utc('2023-04-05T04:07:08.123Z'),
  });
});

test('text input is parsed as JSON', () => {
  const task = makeTask('TIMESTAMP', { field: 'time' });
  assert.deepEqual(value(run(task, '{"time":"2023-04-05T06:07:08.000+0000"}')), {
    time: '2023-04-05T06:07:08.000+0000',
    _time: utc('2023-04-05T06:07:08Z'),
  });
});

test('text that is not a JSON object is a task error', () => {
  const task = makeTask('TIMESTAMP', { field: 'time' });
  assert.match(
    errorOf(run(task, 'time=now')),
    /^the record is text that is not JSON \(.+\); this task needs an event$/,
  );
  assert.equal(errorOf(run(task, '[1,2]')), 'the record is JSON array, not an object; this task needs an event');
  assert.equal(errorOf(run(task, 'null')), 'the record is JSON null, not an object; this task needs an event');
  assert.equal(errorOf(run(task, '42')), 'the record is JSON number, not an object; this task needs an event');
});

test('Java patterns of the original engine', () => {
  const cases: [string, string, string][] = [
    ["yyyy-MM-dd'T'HH:mm:ss.SSSZ", '2023-04-05T06:07:08.123-0700', '2023-04-05T13:07:08.123Z'],
    ['dd/MMM/yyyy:HH:mm:ss Z', '10/Oct/2000:13:55:36 -0700', '2000-10-10T20:55:36Z'],
    ['yyyy-MM-dd HH:mm:ss', '2023-04-05 06:07:08', '2023-04-05T06:07:08Z'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2023-04-05T06:07:08.123Z', '2023-04-05T06:07:08.123Z'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2023-04-05T06:07:08.123+05:30', '2023-04-05T00:37:08.123Z'],
    ["yyyy-MM-dd'T'HH:mm:ssX", '2023-04-05T06:07:08+01', '2023-04-05T05:07:08Z'],
    ["yyyy-MM-dd'T'HH:mm:ssxx", '2023-04-05T06:07:08+0100', '2023-04-05T05:07:08Z'],
    ['EEE, dd MMM yyyy HH:mm:ss Z', 'Wed, 05 Apr 2023 06:07:08 +0000', '2023-04-05T06:07:08Z'],
    ['EEEE, MMMM d, yyyy h:mm a', 'Wednesday, April 5, 2023 6:07 PM', '2023-04-05T18:07:00Z'],
    ['yyyy-MM-dd hh:mm:ss a', '2023-04-05 12:07:08 AM', '2023-04-05T00:07:08Z'],
    ['yyyyMMddHHmmss', '20230405060708', '2023-04-05T06:07:08Z'],
    ['yy-MM-dd HH:mm', '23-04-05 06:07', '2023-04-05T06:07:00Z'],
    ['yyyy-MM-dd', '2023-04-05', '2023-04-05T00:00:00Z'],
    ['yyyy.DDD HH:mm', '2023.095 06:07', '2023-04-05T06:07:00Z'],
    ["yyyy-MM-dd'T'HH:mm:ss[.SSS]", '2023-04-05T06:07:08', '2023-04-05T06:07:08Z'],
    ["yyyy-MM-dd'T'HH:mm:ss[.SSS]", '2023-04-05T06:07:08.250', '2023-04-05T06:07:08.250Z'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSSSS", '2023-04-05T06:07:08.123456', '2023-04-05T06:07:08.123Z'],
    ["yyyy-MM-dd 'at' HH:mm ''Z''", "2023-04-05 at 06:07 'Z'", '2023-04-05T06:07:00Z'],
    ['yyyy-MM-dd HH:mm:ss ZZZZZ', '2023-04-05 06:07:08 -03:00', '2023-04-05T09:07:08Z'],
    ['yyyy-MM-dd HH:mm:ss O', '2023-04-05 06:07:08 GMT+8', '2023-04-04T22:07:08Z'],
    ['yyyy-MM-dd HH:mm:ss ZZZZ', '2023-04-05 06:07:08 GMT-02:30', '2023-04-05T08:37:08Z'],
    ['yyyy-MM-dd kk:mm', '2023-04-05 24:00', '2023-04-05T00:00:00Z'],
  ];
  for (const [format, text, expected] of cases)
    assert.equal(parsed(format, text), utc(expected), `${format} ← ${text}`);
});

test('Java Z also reads Z and +HH:MM (more lenient than Java), and the default format takes them', () => {
  assert.equal(parsed("yyyy-MM-dd'T'HH:mm:ss.SSSZ", '2023-04-05T06:07:08.123Z'), utc('2023-04-05T06:07:08.123Z'));
  assert.equal(parsed("yyyy-MM-dd'T'HH:mm:ss.SSSZ", '2023-04-05T06:07:08.123+02:00'), utc('2023-04-05T04:07:08.123Z'));
});

test('zones: region ids with daylight saving, zone names, UTC default', () => {
  assert.equal(parsed('yyyy-MM-dd HH:mm:ss VV', '2023-07-05 06:07:08 Europe/Paris'), utc('2023-07-05T04:07:08Z'));
  assert.equal(parsed('yyyy-MM-dd HH:mm:ss VV', '2023-01-05 06:07:08 Europe/Paris'), utc('2023-01-05T05:07:08Z'));
  assert.equal(parsed('yyyy-MM-dd HH:mm:ss VV', '2023-01-05 06:07:08 UTC'), utc('2023-01-05T06:07:08Z'));
  assert.equal(parsed('yyyy-MM-dd HH:mm:ss z', '2023-01-05 06:07:08 PST'), utc('2023-01-05T14:07:08Z'));
  assert.equal(parsed('EEE MMM dd HH:mm:ss zzz yyyy', 'Thu Jan 05 06:07:08 UTC 2023'), utc('2023-01-05T06:07:08Z'));
  assert.equal(parsed('yyyy-MM-dd HH:mm:ss', '2023-01-05 06:07:08'), utc('2023-01-05T06:07:08Z'));
});

test('syslog MMM dd HH:mm:ss has no year: the current year', () => {
  assert.equal(parsed('MMM dd HH:mm:ss', 'Oct 11 22:14:15', Date.UTC(2024, 5, 1)), utc('2024-10-11T22:14:15Z'));
  assert.equal(parsed('MMM d HH:mm:ss', 'Oct 1 22:14:15', Date.UTC(2021, 0, 1)), utc('2021-10-01T22:14:15Z'));
  assert.equal(
    parsed('MMM dd HH:mm:ss', 'Feb 29 00:00:00', Date.UTC(2023, 5, 1)),
    utc('2023-02-28T00:00:00Z'),
    'SMART resolution: last valid day',
  );
  assert.equal(
    parsed('HH:mm:ss', '10:11:12', Date.UTC(2024, 5, 1, 23)),
    utc('2024-06-01T10:11:12Z'),
    'no date at all: today',
  );
});

test('SMART resolution: a day past the end of the month is the last day of that month', () => {
  assert.equal(parsed('yyyy-MM-dd', '2023-02-30'), utc('2023-02-28T00:00:00Z'));
  assert.equal(parsed('yyyy-MM-dd', '2024-02-30'), utc('2024-02-29T00:00:00Z'));
  assert.equal(parsed('yyyy-MM-dd', '2023-04-31'), utc('2023-04-30T00:00:00Z'));
});

test('strftime patterns (format contains %)', () => {
  const cases: [string, string, string][] = [
    ['%Y-%m-%d %H:%M:%S', '2023-04-05 06:07:08', '2023-04-05T06:07:08Z'],
    ['%Y-%m-%dT%H:%M:%S%z', '2023-04-05T06:07:08+0200', '2023-04-05T04:07:08Z'],
    ['%Y-%m-%dT%H:%M:%S.%f%z', '2023-04-05T06:07:08.123456-05:00', '2023-04-05T11:07:08.123Z'],
    ['%d/%b/%Y:%H:%M:%S %z', '10/Oct/2000:13:55:36 -0700', '2000-10-10T20:55:36Z'],
    ['%b %e %T', 'Oct  1 22:14:15', '2024-10-01T22:14:15Z'],
    ['%a, %d %B %Y %I:%M %p', 'Wed, 05 April 2023 06:07 pm', '2023-04-05T18:07:00Z'],
    ['%F %R', '2023-04-05 06:07', '2023-04-05T06:07:00Z'],
    ['%D %T', '04/05/23 06:07:08', '2023-04-05T06:07:08Z'],
    ['%y%m%d', '690405', '1969-04-05T00:00:00Z'],
    ['%Y-%j', '2023-095', '2023-04-05T00:00:00Z'],
    ['%s', '1680674828', '2023-04-05T06:07:08Z'],
    ['%Y-%m-%d %H:%M:%S %Z', '2023-07-05 06:07:08 Europe/Paris', '2023-07-05T04:07:08Z'],
    ['%Y-%m-%d %H:%M:%S %Z', '2023-07-05 06:07:08 UTC', '2023-07-05T06:07:08Z'],
    ['%Y-%m-%d %H:%M:%S.%L', '2023-07-05 06:07:08.042', '2023-07-05T06:07:08.042Z'],
    ['%Y%%%m', '2023%04', '2023-04-01T00:00:00Z'],
  ];
  for (const [format, text, expected] of cases)
    assert.equal(parsed(format, text), utc(expected), `${format} ← ${text}`);
});

test('epoch (seconds, may be fractional), epoch_millis, iso8601; numbers or numeric text', () => {
  assert.equal(parsed('epoch', 1680674828), utc('2023-04-05T06:07:08Z'));
  assert.equal(parsed('epoch', '1680674828.123'), utc('2023-04-05T06:07:08.123Z'));
  assert.equal(parsed('epoch', 1680674828.5), utc('2023-04-05T06:07:08.500Z'));
  assert.equal(parsed('epoch_millis', 1680674828123), 1680674828123);
  assert.equal(parsed('epoch_millis', '1680674828123'), 1680674828123);
  assert.equal(parsed('iso8601', '2023-04-05T06:07:08.123+02:00'), utc('2023-04-05T04:07:08.123Z'));
  assert.equal(parsed('iso8601', '2023-04-05T06:07:08Z'), utc('2023-04-05T06:07:08Z'));
  assert.equal(parsed('iso8601', '2023-04-05 06:07:08'), utc('2023-04-05T06:07:08Z'));
  assert.equal(parsed('iso8601', '2023-04-05T06:07+0530'), utc('2023-04-05T00:37:00Z'));
  assert.equal(parsed('iso8601', '2023-04-05'), utc('2023-04-05T00:00:00Z'));
  assert.equal(parsed('EPOCH', '1'), 1000, 'the names are case-insensitive');
});

function fallback(definition: object, event: Record<string, unknown>) {
  const errors: string[] = [];
  const counters = { taskError: (task: TaskIdentity, message: string) => errors.push(`${task.id}:${message}`) };
  const task = makeTask('TIMESTAMP', definition, { counters });
  return { out: single(run(task, event, T0)), errors };
}

test('unparseable time: _time from the record timestamp, error counted, record goes on', () => {
  const { out, errors } = fallback({ field: 't' }, { t: 'yesterday' });
  assert.deepEqual(out, { value: { t: 'yesterday', _time: T0 }, timestamp: T0 });
  assert.deepEqual(errors, [
    `7:field "t" value "yesterday" does not match the format "yyyy-MM-dd'T'HH:mm:ss.SSSZ"; the record timestamp was used`,
  ]);
});

test('missing or null field: _time from the record timestamp, error counted', () => {
  const missing = fallback({ field: 't' }, { u: 1 });
  assert.deepEqual(missing.out, { value: { u: 1, _time: T0 }, timestamp: T0 });
  assert.deepEqual(missing.errors, ['7:field "t" is missing; the record timestamp was used']);
  const nulled = fallback({ field: 't', format: 'epoch' }, { t: null });
  assert.deepEqual(nulled.out.value, { t: null, _time: T0 });
  assert.equal(nulled.errors.length, 1);
});

test('wrong widths, invalid months, hours and offsets do not parse', () => {
  for (const [format, text] of [
    ['yyyy-MM-dd', '2023-13-01'],
    ['yyyy-MM-dd', '2023-4-05'],
    ['yyyy-MM-dd HH:mm', '2023-04-05 25:00'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSS", '2023-04-05T06:07:08.12'],
    ['yyyy-MM-dd HH:mm:ss Z', '2023-04-05 06:07:08 +2500'],
    ['yyyy-MM-dd HH:mm:ss VV', '2023-04-05 06:07:08 Mars/Olympus'],
    ['epoch', 'soon'],
    ['epoch_millis', ''],
    ['iso8601', '05/04/2023'],
    ['%Y-%m-%d', '2023/04/05'],
  ]) {
    const { errors } = fallback({ field: 't', format }, { t: text });
    assert.equal(errors.length, 1, `${format} ← ${text}`);
  }
});

test('addNewField=false sets only the record timestamp; timeFieldName names the field; dotted fields are nested', () => {
  const quiet = makeTask('TIMESTAMP', { field: 'ts', format: 'epoch', addNewField: false });
  assert.deepEqual(single(run(quiet, { ts: 1 })), { value: { ts: 1 }, timestamp: 1000 });
  const named = makeTask('TIMESTAMP', { field: 'meta.ts', format: 'epoch_millis', timeFieldName: 'when' });
  assert.deepEqual(single(run(named, { meta: { ts: 5 } })), { value: { meta: { ts: 5 }, when: 5 }, timestamp: 5 });
  const flat = makeTask('TIMESTAMP', { field: 'meta.ts', format: 'epoch_millis' });
  assert.deepEqual(
    value(run(flat, { 'meta.ts': 6 })),
    { 'meta.ts': 6, _time: 6 },
    'a top-level key with the dots is found first',
  );
});

test('invalid formats and definitions are rejected with the key and what is accepted', () => {
  assert.deepEqual(violations('TIMESTAMP', {}), ['definition.field: is required']);
  assert.deepEqual(violations('TIMESTAMP', { field: 't', zone: 'UTC' }), [
    'definition.zone: is not an accepted field; accepted: field, format, addNewField, timeFieldName',
  ]);
  const [bad] = violations('TIMESTAMP', { field: 't', format: 'yyyy-MM-dd {x}' });
  assert.match(
    bad ?? '',
    /^definition\.format: "yyyy-MM-dd \{x\}" is not a time format \('\{' is reserved at position 12\); use a Java DateTimeFormatter pattern/,
  );
  const [strf] = violations('TIMESTAMP', { field: 't', format: '%Y-%Q' });
  assert.match(strf ?? '', /^definition\.format: "%Y-%Q" is not a time format \(unknown directive %Q at position 4\)/);
  const [joda] = violations('TIMESTAMP', { field: 't', format: 'yyyy-MM-dd qqqqqqq' });
  assert.match(
    joda ?? '',
    /^definition\.format: "yyyy-MM-dd qqqqqqq" is not a time format \(Too many pattern letters: q\); use /,
  );
});
