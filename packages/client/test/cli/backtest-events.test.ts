import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { readEvents, type EventPosition } from '../../src/cli/backtest-events.ts';

/** `weirctl backtest`'s events reader: NDJSON read in 1 MiB chunks, or a JSON array; bad input named by file and line. */
const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-backtest-events-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

function read(p: string): { events: Record<string, unknown>[]; positions: EventPosition[]; count: number } {
  const events: Record<string, unknown>[] = [];
  const positions: EventPosition[] = [];
  const count = readEvents(p, (e, at) => {
    events.push(e);
    positions.push(at);
  });
  return { events, positions, count };
}

test('NDJSON: every object in order with its line; blank lines skipped but counted; no newline at the end', () => {
  const r = read(file('a.ndjson', '{"n":1}\n\n{"n":2}\r\n   \n{"n":3}'));
  assert.deepEqual(r.events, [{ n: 1 }, { n: 2 }, { n: 3 }]);
  assert.deepEqual(r.positions, [{ line: 1 }, { line: 3 }, { line: 5 }]);
  assert.equal(r.count, 3);
});

test('NDJSON larger than a chunk: lines and multi-byte characters cut by a chunk boundary arrive whole', () => {
  const lines = Array.from({ length: 12_000 }, (_, i) => JSON.stringify({ i, text: `é€😀 ${'x'.repeat(i % 400)}` }));
  const r = read(file('big.ndjson', `${lines.join('\n')}\n`));
  assert.equal(r.count, lines.length);
  assert.ok(Buffer.byteLength(lines.join('\n')) > 2 * (1 << 20));
  assert.deepEqual(
    r.events.map((e) => JSON.stringify(e)),
    lines,
  );
  assert.deepEqual(r.positions.at(-1), { line: lines.length });
});

test('a JSON array (after leading blank space): its objects with their index', () => {
  const r = read(file('a.json', '\n\n  [{"a":1}, {"b":2}]\n'));
  assert.deepEqual(r.events, [{ a: 1 }, { b: 2 }]);
  assert.deepEqual(r.positions, [{ index: 0 }, { index: 1 }]);
});

test('bad input: a line that is not JSON, a value that is not an object, a broken array, a missing file; each named', () => {
  const bad = file('bad.ndjson', '{"ok":1}\n{"broken":\n');
  assert.throws(() => read(bad), { message: new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: not JSON`) });
  assert.throws(() => read(file('arr.ndjson', '{"a":1}\n[1]\n')), {
    message: /arr\.ndjson:2: an event must be a JSON object, found an array$/,
  });
  assert.throws(() => read(file('null.json', '[{"a":1}, null]')), {
    message: /null\.json\[1\]: an event must be a JSON object, found null$/,
  });
  assert.throws(() => read(file('open.json', '[{"a":1}')), { message: /open\.json: not a JSON array/ });
  assert.throws(() => read(path.join(dir, 'none.ndjson')), { message: /^--events .*none\.ndjson: ENOENT/ });
});
