import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionText, sideBySide, togglePick, valueText } from '../../src/lib/version-diff.ts';

test('kept lines sit on both sides; a removed line beside the added one that replaced it', () => {
  assert.deepEqual(
    sideBySide([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'B' },
      { op: ' ', text: 'c' },
    ]),
    [
      { kind: 'kept', left: { line: 1, text: 'a' }, right: { line: 1, text: 'a' } },
      { kind: 'changed', left: { line: 2, text: 'b' }, right: { line: 2, text: 'B' } },
      { kind: 'kept', left: { line: 3, text: 'c' }, right: { line: 3, text: 'c' } },
    ],
  );
});

test('runs of unequal length: the rest beside nothing; each side numbers its own lines', () => {
  assert.deepEqual(
    sideBySide([
      { op: '-', text: 'x' },
      { op: '-', text: 'y' },
      { op: '+', text: 'X' },
      { op: ' ', text: 'k' },
      { op: '+', text: 'new 1' },
      { op: '+', text: 'new 2' },
    ]),
    [
      { kind: 'changed', left: { line: 1, text: 'x' }, right: { line: 1, text: 'X' } },
      { kind: 'changed', left: { line: 2, text: 'y' }, right: undefined },
      { kind: 'kept', left: { line: 3, text: 'k' }, right: { line: 2, text: 'k' } },
      { kind: 'changed', left: undefined, right: { line: 3, text: 'new 1' } },
      { kind: 'changed', left: undefined, right: { line: 4, text: 'new 2' } },
    ],
  );
  assert.deepEqual(sideBySide([]), []);
});

test('values as JSON, a missing field as a dash', () => {
  assert.equal(valueText('high', true), '"high"');
  assert.equal(valueText(['T1110'], true), '["T1110"]');
  assert.equal(valueText(null, true), 'null');
  assert.equal(valueText(undefined, false), '—');
});

test('a rollback is named with the version it restored', () => {
  assert.equal(actionText({ action: 'update' }), 'update');
  assert.equal(actionText({ action: 'update', rollbackOf: 1 }), 'rollback to version 1');
  assert.equal(actionText({ action: 'create', rollbackOf: 2 }), 'rollback to version 2');
});

test('two versions are picked at most: a third replaces the older pick; a click on a pick drops it', () => {
  assert.deepEqual(togglePick([], 3), [3]);
  assert.deepEqual(togglePick([3], 1), [1, 3]);
  assert.deepEqual(togglePick([1, 3], 2), [2, 3]);
  assert.deepEqual(togglePick([2, 3], 3), [2]);
});
