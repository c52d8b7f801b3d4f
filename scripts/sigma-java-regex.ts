/**
 * Counts the SigmaHQ rules whose `|re` values use Java-only regex constructs (look-around,
 * back-reference, possessive quantifier, atomic group), which Weir refuses at save:
 * `node scripts/sigma-java-regex.ts [sigma folder]` (default ../shared/data/sigma). The `|re` values
 * are read line by line (a scalar after `Field|re:` or the `- item` lines under it), which is how
 * every SigmaHQ rule writes them. Figures: docs/compatibility.md.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { compileUserRegex, javaOnlyConstruct } from '../packages/pdl/src/regex.ts';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../../shared/data/sigma'));
const folders = [
  'rules',
  'rules-emerging-threats',
  'rules-threat-hunting',
  'rules-compliance',
  'rules-dfir',
  'rules-placeholder',
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.yml') ? [full] : [];
  });
}

function unquote(raw: string): string {
  const v = raw.trim();
  if (v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replaceAll("''", "'");
  if (v.startsWith('"') && v.endsWith('"')) return JSON.parse(v) as string;
  return v.replace(/\s+#.*$/, '');
}

function regexValues(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:- )?[^\s:#]+\|re(?:\|[a-z]+)*:\s*(.*)$/.exec(lines[i]!);
    if (!m) continue;
    if (m[2]!.trim() !== '') {
      out.push(unquote(m[2]!));
      continue;
    }
    const indent = m[1]!.length;
    for (let j = i + 1; j < lines.length; j++) {
      const item = /^(\s*)-\s+(.*)$/.exec(lines[j]!);
      // a list item of this key: deeper than the key, and not a key itself (`- Field|contains:`)
      if (!item || item[1]!.length < indent || /^[^\s'"]+:(\s|$)/.test(item[2]!)) break;
      out.push(unquote(item[2]!));
    }
  }
  return out;
}

const all = folders.flatMap((f) => {
  try {
    return files(path.join(root, f));
  } catch {
    return [];
  }
});
let rulesWithRe = 0;
let values = 0;
const javaRules = new Map<string, string[]>();
const byConstruct = new Map<string, number>();
const otherInvalid: string[] = [];
for (const file of all) {
  const res = regexValues(readFileSync(file, 'utf8'));
  if (res.length === 0) continue;
  rulesWithRe++;
  values += res.length;
  for (const re of res) {
    const java = javaOnlyConstruct(re);
    if (java !== null) {
      const construct = java.slice(0, java.indexOf(" '"));
      byConstruct.set(construct, (byConstruct.get(construct) ?? 0) + 1);
      const list = javaRules.get(file) ?? [];
      list.push(construct);
      javaRules.set(file, list);
      continue;
    }
    try {
      compileUserRegex(re);
    } catch (error) {
      otherInvalid.push(`  ${path.relative(root, file)}: ${(error as Error).message}`);
    }
  }
}
console.log(`SigmaHQ rules read: ${all.length}; with |re values: ${rulesWithRe} (${values} regular expressions)`);
console.log(
  `rules using a Java-only construct: ${javaRules.size} (${[...javaRules.values()].reduce((n, l) => n + l.length, 0)} regular expressions)`,
);
for (const [construct, n] of [...byConstruct].sort()) console.log(`  ${construct}: ${n}`);
console.log(`other regular expressions RE2 refuses: ${otherInvalid.length}`);
for (const line of otherInvalid) console.log(line);
for (const [file, list] of [...javaRules].sort())
  console.log(`  ${path.relative(root, file)}: ${[...new Set(list)].join(', ')}`);
