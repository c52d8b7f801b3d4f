// Runs every `pdl-example` block of docs/pdl.md, so the reference cannot drift from the code.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { check, compile } from '../src/index.ts';
import type { JsonObject, LookupResolver, LookupTable } from '../src/index.ts';
import { functions } from '../src/functions.ts';
import { commands } from '../src/vocabulary.ts';

const docs = readFileSync(new URL('../../../docs/pdl.md', import.meta.url), 'utf8');
const blocks = [...docs.matchAll(/```pdl-example\n([\s\S]*?)```/g)].map((m) => {
  const fields: Record<string, string> = {};
  for (const line of (m[1] as string).split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return fields;
});

function resolver(json: string | undefined): LookupResolver | undefined {
  if (json === undefined) return undefined;
  const tables = JSON.parse(json) as Record<string, JsonObject[]>;
  return { get: (id) => (Object.hasOwn(tables, id) ? ({ rows: tables[id] } as LookupTable) : undefined) };
}

describe('docs/pdl.md examples', () => {
  test('there are examples', () => assert.ok(blocks.length >= 50, String(blocks.length)));

  for (const block of blocks) {
    const pdl = block['pdl'] as string;
    test(pdl, () => {
      const lookups = resolver(block['lookups']);
      if (block['error'] !== undefined) {
        const result = check(pdl, lookups === undefined ? {} : { lookups });
        assert.equal(result.result, false);
        if (!result.result) assert.equal(result.error.message, block['error']);
        return;
      }
      const program = compile(pdl, lookups === undefined ? {} : { lookups });
      if (block['event'] !== undefined) {
        assert.deepEqual(program.run(JSON.parse(block['event'])), JSON.parse(block['output'] as string));
        return;
      }
      const events = JSON.parse(block['events'] as string) as JsonObject[];
      const outputs = events.flatMap((e) => program.feed(e));
      if (block['advance'] !== undefined) outputs.push(...program.advanceTime(Number(block['advance'])));
      assert.deepEqual(outputs, JSON.parse(block['outputs'] as string));
    });
  }

  test('the reference names every function and every command', () => {
    for (const name of [...Object.keys(functions), 'if']) assert.ok(docs.includes(`\`${name}(`), name);
    for (const name of commands)
      assert.ok(docs.includes(`## ${name}`) || docs.includes(`### ${name}`) || docs.includes(`${name}(`), name);
  });
});
