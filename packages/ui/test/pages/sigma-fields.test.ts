import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventPaths, fieldHints, ruleFields } from '../../src/pages/sigma-fields.ts';

const evtxPdl =
  '(Event.System.Channel = "Microsoft-Windows-Sysmon/Operational" AND Event.System.EventID = 1) AND (Event.EventData.Image = i"*\\\\rar.exe" AND Event.EventData.CommandLine ?= i" a ")';

test('ruleFields: the event paths a PDL reads, Weir`s own _ fields left out; none when it does not parse', () => {
  assert.deepEqual(ruleFields(evtxPdl), [
    'Event.System.Channel',
    'Event.System.EventID',
    'Event.EventData.Image',
    'Event.EventData.CommandLine',
  ]);
  assert.deepEqual(ruleFields('_rule.id = "x" AND user = "a"'), ['user']);
  assert.deepEqual(ruleFields('Event.EventData.`Source Name` = i"AMSI"'), ['Event.EventData.Source Name']);
  assert.deepEqual(ruleFields('user = '), []);
});

test('eventPaths: every object path, arrays not walked', () => {
  assert.deepEqual([...eventPaths([{ a: { b: 1, c: [{ d: 1 }] } }, { e: null }, 'text'])], ['a', 'a.b', 'a.c', 'e']);
});

test('fieldHints: flat events miss every Event.EventData.* field; the same names at the top are pointed out', () => {
  const flat = [{ Image: 'C:\\rar.exe', CommandLine: 'rar a -hp x', EventID: 1 }];
  assert.deepEqual(fieldHints([{ id: 'sigma-rar', pdl: evtxPdl }], flat), [
    {
      rule: 'sigma-rar',
      fields: 4,
      missing: ['Event.System.Channel', 'Event.System.EventID', 'Event.EventData.Image', 'Event.EventData.CommandLine'],
      similar: [
        { field: 'Event.System.EventID', present: 'EventID' },
        { field: 'Event.EventData.Image', present: 'Image' },
        { field: 'Event.EventData.CommandLine', present: 'CommandLine' },
      ],
    },
  ]);
  const evtx = [{ Event: { System: { Channel: 'x', EventID: 1 }, EventData: { Image: 'a', CommandLine: 'b' } } }];
  assert.deepEqual(fieldHints([{ id: 'sigma-rar', pdl: evtxPdl }], evtx), []);
});

test('fieldHints: a field with two spellings is present when either is; when neither, Sigma`s spelling is named', () => {
  const pdl = 'Event.EventData.SourceName = i"AMSI" OR Event.EventData.`Source Name` = i"AMSI"';
  assert.deepEqual(fieldHints([{ id: 'r', pdl }], [{ Event: { EventData: { 'Source Name': 'AMSI' } } }]), []);
  assert.deepEqual(fieldHints([{ id: 'r', pdl }], [{ Event: { EventData: {} } }]), [
    { rule: 'r', fields: 2, missing: ['Event.EventData.SourceName'], similar: [] },
  ]);
});
