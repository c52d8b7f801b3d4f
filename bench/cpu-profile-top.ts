/**
 * Summarises V8 .cpuprofile files (from `--cpu-prof`): self time per function and per package,
 * the top entries. Run: `node_modules/.bin/node bench/cpu-profile-top.ts <file|dir> [top] [function]`;
 * with a function name, only the samples taken inside a call of it (e.g. `indexedRun`: the
 * RuleIndex loop of bench/sigma.ts without the setup and the other paths).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
}

const target = process.argv[2]!;
const top = Number(process.argv[3] ?? 30);
const under = process.argv[4];
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(target, f))
  : [target];

/** The package (or the repository folder) a script belongs to. */
function owner(url: string): string {
  if (url === '') return '(V8: gc, program, idle, native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node core';
  const m = /\/(packages\/[^/]+\/src\/[^/]+|bench)\//.exec(url);
  return m ? m[1]! : url;
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // with a function name: the nodes at or below a call of it
  const inside = new Set<number>();
  const mark = (id: number, within: boolean): void => {
    const node = byId.get(id)!;
    const now = within || node.callFrame.functionName === under;
    if (now) inside.add(id);
    for (const child of node.children ?? []) mark(child, now);
  };
  if (under !== undefined) mark(profile.nodes[0]!.id, false);
  const self = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const dt = profile.timeDeltas[i] ?? 0;
    const f = node.callFrame;
    if (f.functionName === '(idle)' || (under !== undefined && !inside.has(id))) return;
    total += dt;
    const key = `${f.functionName || '(anonymous)'}  ${f.url ? `${f.url.replace(/^.*\/(node_modules|packages)\//, '$1/')}:${f.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    byOwner.set(owner(f.url), (byOwner.get(owner(f.url)) ?? 0) + dt);
  });
  const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
  console.log(
    `\n${path.basename(file)}: ${(total / 1e6).toFixed(2)} s busy (idle excluded)${under === undefined ? '' : `, inside ${under}`}`,
  );
  console.log('by package:');
  for (const [k, v] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${pct(v)}  ${k}`);
  console.log('by function (self time):');
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(v)}  ${k}`);
}
