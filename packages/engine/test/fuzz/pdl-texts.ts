import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { check } from '@weir/pdl';
import { anyString, hugeString, nastyStrings } from './mutations.ts';
import type { Rng } from './rng.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

/** Where the seed texts come from: the reference's examples, the PDL tests' texts, the spec's inline examples. */
function candidateTexts(): string[] {
  const out: string[] = [];
  const docs = readFileSync(path.join(root, 'docs', 'pdl.md'), 'utf8');
  for (const m of docs.matchAll(/^pdl:\s+(.*)$/gm)) out.push(m[1]!);
  for (const m of docs.matchAll(/`([^`\n]{3,200})`/g)) out.push(m[1]!);
  const spec = path.resolve(root, '../shared/spec/pdl.md');
  for (const file of [spec, '/work/shared/spec/pdl.md']) {
    if (!existsSync(file)) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(/`([^`\n]{3,200})`/g)) out.push(m[1]!);
    break;
  }
  const testDir = path.join(root, 'packages', 'pdl', 'test');
  for (const file of readdirSync(testDir).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(path.join(testDir, file), 'utf8');
    for (const m of text.matchAll(/'((?:[^'\\\n]|\\.){3,300})'/g)) {
      try {
        out.push(JSON.parse(`"${m[1]!.replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string);
      } catch {
        // not a plain string literal
      }
    }
  }
  return out;
}

let seeds: string[] | undefined;

/** The valid PDL texts mutations start from (every candidate that compiles), deduplicated. */
export function pdlSeeds(): readonly string[] {
  seeds ??= [...new Set(candidateTexts())].filter((t) => check(t).result).sort();
  return seeds;
}

/** Pieces of PDL a mutation inserts. */
const fragments = [
  ' AND ',
  ' OR ',
  ' NOT ',
  '(',
  ')',
  '[',
  ']',
  ',',
  ' | ',
  '||',
  '=',
  '!=',
  '?=',
  '~=',
  '<',
  '>=',
  ' IN ',
  ' AS ',
  ' OUTPUT ',
  '"',
  '`',
  '\\',
  '*',
  '"(?<n>x)"',
  '"(a+)+$"',
  '"[z-a]"',
  '"(?i)x"',
  '5m',
  '0s',
  '-1d',
  '99999999999w',
  '1e400',
  '-0',
  'null',
  'true',
  'eval x=',
  'fields keep ',
  'fields remove ',
  'rename a AS ',
  'flatten',
  'lookup l k OUTPUT v',
  'rex f "(?<g>.)"',
  'parse_kv f',
  'parse_csv f header="a,b"',
  'event_count timespan=1m',
  'value_count(a) timespan=1h',
  'value_sum(a) timespan=1h',
  'value_avg(a) timespan=1h',
  'temporal(ordered=true) [ a=1 AS x || b=2 AS y ] timespan=1m',
  'group_by a, b',
  'emit=close',
  'reset=false',
  'suppress=1h',
  'where ',
  'if(a=1, 1, 2)',
  'lower(',
  'upper(a)',
  'replace(a, "x", "y")',
  'substr(a, -1, 99999999)',
  'now()',
  'len(',
  'split(a, "")',
  'coalesce()',
  'tonumber("1e999")',
  '_aggregation.value',
  '_temporal.matched',
  'a.b.c.d',
  '`odd field`',
  '\n',
  '\r\n',
  '\t',
  '#',
  '.',
  ':',
  '$',
  '@',
];

/** One mutation of a PDL text: characters, tokens, splices, repetition, nesting, hostile literals. */
export function mutatePdl(rng: Rng, text: string): string {
  const at = rng.int(0, text.length);
  switch (rng.int(0, 13)) {
    case 0:
      return text.slice(0, at) + rng.pick(fragments) + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(Math.min(text.length, at + rng.int(1, 8)));
    case 2:
      return text.slice(0, at);
    case 3:
      return text.slice(0, at) + String.fromCharCode(rng.int(0, 0xffff)) + text.slice(at + 1);
    case 4:
      return `${text} | ${rng.pick(pdlSeeds())}`;
    case 5:
      return `${text.slice(0, at)}${rng.pick(pdlSeeds())}${text.slice(at)}`;
    case 6:
      return Array.from({ length: rng.pick([10, 100, 1000]) }, () => text).join(
        rng.pick([' | ', ' AND ', ' OR ', '\n']),
      );
    case 7: {
      const n = rng.pick([50, 500, 5000, 50_000]);
      return `${'('.repeat(n)}${text}${')'.repeat(rng.chance(0.8) ? n : n - 1)}`;
    }
    case 8:
      return text.replace(/"[^"]*"/, () => JSON.stringify(rng.pick(nastyStrings)));
    case 9:
      return text.replace(/"[^"]*"/, () => `"${hugeString(rng).replace(/["\\]/g, 'x')}"`);
    case 10:
      return text.replace(/\d+/, () => rng.pick(['0', '-1', '99999999999999999999', '1e308', '1.5', '0x10', 'NaN']));
    case 11:
      return text.replace(/[A-Za-z_][\w.]*/, () =>
        rng.pick(['__proto__', 'constructor', 'prototype.x', '__proto__.polluted', anyString(rng)]),
      );
    case 12:
      return `NOT ${'NOT '.repeat(rng.pick([10, 1000, 20_000]))}${text}`;
    default:
      return text.split('').reverse().join('');
  }
}

const maxTextLength = 400_000;

/** The i-th fuzzed PDL text of a run: a seed with 0 (sometimes) to 4 mutations, or random text. */
export function pdlText(rng: Rng): string {
  const r = rng.next();
  if (r < 0.05) return anyString(rng);
  let text = rng.pick(pdlSeeds());
  const mutations = r < 0.15 ? 0 : rng.int(1, 4);
  // mutations compound (a repeat of a repeat); texts stay under the rule schema's 1 MiB
  for (let i = 0; i < mutations; i++) text = mutatePdl(rng, text).slice(0, maxTextLength);
  return text;
}
