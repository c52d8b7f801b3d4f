import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCef } from '../../src/tasks/parse-cef.ts';
import { T0, errorOf, makeTask, run, single, value } from './task-harness.ts';

const cef = makeTask('PARSE_CEF', { keepRaw: false });

test('header fields and extension keys; _raw kept by default', () => {
  const text = 'CEF:0|Security|threatmanager|1.0|100|worm successfully stopped|10|src=10.0.0.1 dst=2.1.2.2 spt=1232';
  assert.deepEqual(single(run(makeTask('PARSE_CEF', {}), text)), {
    value: {
      cefVersion: '0',
      deviceVendor: 'Security',
      deviceProduct: 'threatmanager',
      deviceVersion: '1.0',
      signatureId: '100',
      name: 'worm successfully stopped',
      severity: '10',
      src: '10.0.0.1',
      dst: '2.1.2.2',
      spt: '1232',
      _raw: text,
    },
    timestamp: T0,
  });
});

test('every escape: \\| and \\\\ in the header; \\= \\\\ \\n \\r \\| in values; others kept', () => {
  const text = 'CEF:0|Ven\\|dor|Prod\\\\uct|1|sig|a\\|b|5|msg=a\\=b c\\\\d line1\\nline2\\r pipe\\|x other\\t cs1=v';
  assert.deepEqual(value(run(cef, text)), {
    cefVersion: '0',
    deviceVendor: 'Ven|dor',
    deviceProduct: 'Prod\\uct',
    deviceVersion: '1',
    signatureId: 'sig',
    name: 'a|b',
    severity: '5',
    msg: 'a=b c\\d line1\nline2\r pipe|x other\\t',
    cs1: 'v',
  });
  assert.equal(decodeCef('\\\\n'), '\\n', 'an escaped backslash before n is a backslash and n');
});

test('values with spaces run to the next key; = inside a value that is not a key stays', () => {
  const text = 'CEF:0|V|P|1|s|n|3|request=http://x.test/a?b=c&d=e msg=hello big world  act=blocked cs1Label=Rule Name';
  assert.deepEqual(value(run(cef, text)), {
    cefVersion: '0',
    deviceVendor: 'V',
    deviceProduct: 'P',
    deviceVersion: '1',
    signatureId: 's',
    name: 'n',
    severity: '3',
    request: 'http://x.test/a?b=c&d=e',
    msg: 'hello big world',
    act: 'blocked',
    cs1Label: 'Rule Name',
  });
});

test('a syslog prefix is kept in syslogHeader', () => {
  const text = '<134>Sep 19 08:26:10 host01 CEF:1|V|P|2|s|n|Low|act=allow';
  assert.deepEqual(value(run(cef, text)), {
    syslogHeader: '<134>Sep 19 08:26:10 host01',
    cefVersion: '1',
    deviceVendor: 'V',
    deviceProduct: 'P',
    deviceVersion: '2',
    signatureId: 's',
    name: 'n',
    severity: 'Low',
    act: 'allow',
  });
});

test('no extension, with or without the last |', () => {
  const header = {
    cefVersion: '0',
    deviceVendor: 'V',
    deviceProduct: 'P',
    deviceVersion: '1',
    signatureId: 's',
    name: 'n',
    severity: '3',
  };
  assert.deepEqual(value(run(cef, 'CEF:0|V|P|1|s|n|3|')), header);
  assert.deepEqual(value(run(cef, 'CEF:0|V|P|1|s|n|3')), header);
});

test('not CEF, or a short header: task error', () => {
  assert.equal(errorOf(run(cef, 'hello world')), 'not a CEF record: "CEF:" not found');
  assert.equal(
    errorOf(run(cef, 'CEF:0|V|P|1')),
    'not a CEF record: the header has 4 of 7 fields (cefVersion|deviceVendor|deviceProduct|deviceVersion|signatureId|name|severity)',
  );
  assert.equal(errorOf(run(cef, { a: 1 })), 'PARSE_CEF needs text: the record is an event without a text field "_raw"');
});

test('an event whose _raw is CEF; rawFieldName', () => {
  const task = makeTask('PARSE_CEF', { rawFieldName: 'message' });
  assert.deepEqual(value(run(task, { message: 'CEF:0|V|P|1|s|n|3|a=1', k: true })), {
    k: true,
    cefVersion: '0',
    deviceVendor: 'V',
    deviceProduct: 'P',
    deviceVersion: '1',
    signatureId: 's',
    name: 'n',
    severity: '3',
    a: '1',
    message: 'CEF:0|V|P|1|s|n|3|a=1',
  });
});
