/**
 * Regenerates `packages/contract/src/attack-techniques.json`, the static ATT&CK Enterprise table the
 * console ships (nothing is fetched at run time), from a git clone of MITRE's `cti` repository
 * (STIX 2.0 bundles, one file per object):
 *
 *   node_modules/.bin/node scripts/attack-table.ts /path/to/cti [git-revision]
 *
 * The table: the matrix's tactics in matrix order, and every technique and sub-technique id with its
 * name and tactics (the kill-chain phases' short names). Revoked and deprecated techniques are kept
 * in `retired` (id → name) so an old annotation still shows a name, but are not in the matrix.
 * ATT&CK® is a registered trademark of The MITRE Corporation; the data is used under MITRE's
 * ATT&CK Terms of Use (attribution in docs/ui.md).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

interface StixObject {
  type: string;
  id: string;
  name: string;
  revoked?: boolean;
  x_mitre_deprecated?: boolean;
  x_mitre_shortname?: string;
  tactic_refs?: string[];
  external_references?: { source_name: string; external_id?: string }[];
  kill_chain_phases?: { kill_chain_name: string; phase_name: string }[];
}

const [repo, revision = 'HEAD'] = process.argv.slice(2);
if (!repo) {
  console.error('usage: scripts/attack-table.ts <cti git directory> [revision]');
  process.exit(2);
}
const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const files = (dir: string) =>
  git('ls-tree', '-r', '--name-only', revision, `enterprise-attack/${dir}`).split('\n').filter(Boolean);
const objects = (dir: string): StixObject[] =>
  files(dir).flatMap((f) => (JSON.parse(git('show', `${revision}:${f}`)) as { objects: StixObject[] }).objects);
const attackId = (o: StixObject) => o.external_references?.find((r) => r.source_name === 'mitre-attack')?.external_id;

const tactics = new Map(objects('x-mitre-tactic').map((t) => [t.id, t]));
const [matrix] = objects('x-mitre-matrix');
const version = git('log', '-1', '--format=%s', revision).trim();
const techniques: Record<string, [string, string[]]> = {};
const retired: Record<string, string> = {};
const patterns = objects('attack-pattern');
const byId = new Map(patterns.filter((p) => !p.revoked && !p.x_mitre_deprecated).map((p) => [attackId(p), p]));
for (const p of patterns.sort((a, b) => (attackId(a) ?? '').localeCompare(attackId(b) ?? ''))) {
  const id = attackId(p);
  if (!id) continue;
  if (p.revoked || p.x_mitre_deprecated) {
    if (!byId.has(id)) retired[id] = p.name;
    continue;
  }
  const phases = (p.kill_chain_phases ?? [])
    .filter((k) => k.kill_chain_name === 'mitre-attack')
    .map((k) => k.phase_name);
  techniques[id] = [p.name, phases];
}
const table = {
  source: `MITRE ${version}, © The MITRE Corporation, used under the ATT&CK Terms of Use`,
  tactics: matrix!.tactic_refs!.map((ref) => {
    const t = tactics.get(ref)!;
    return { id: attackId(t), shortName: t.x_mitre_shortname, name: t.name };
  }),
  techniques,
  retired,
};
const out = path.resolve(import.meta.dirname, '../packages/contract/src/attack-techniques.json');
writeFileSync(out, `${JSON.stringify(table, null, 0).replace(/\],"T/g, '],\n"T')}\n`);
console.log(
  `${out}: ${table.tactics.length} tactics, ${Object.keys(techniques).length} techniques and sub-techniques, ${Object.keys(retired).length} retired`,
);
