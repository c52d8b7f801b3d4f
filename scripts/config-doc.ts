/**
 * Rewrites the settings table of docs/configuration.md (between the `settings:begin/end` markers)
 * from the settings definitions in packages/engine/src/config/settings.ts: `npm run docs:config`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { settingDefinitions } from '../packages/engine/src/config/settings.ts';

const file = new URL('../docs/configuration.md', import.meta.url);
const rows = Object.entries(settingDefinitions).map(([key, def]) => {
  const dflt = def.default === undefined ? '(none)' : `\`${def.default}\``;
  return `| \`${key}\` | ${dflt} | ${def.accepted} | ${def.doc.replace(/\|/g, '\\|')} |`;
});
const table = ['| key | default | accepted | meaning |', '|---|---|---|---|', ...rows].join('\n');
const text = readFileSync(file, 'utf8');
const markers = /<!-- settings:begin -->[\s\S]*?<!-- settings:end -->/;
if (!markers.test(text)) throw new Error('docs/configuration.md has no settings:begin/end markers');
const next = text.replace(markers, () => `<!-- settings:begin -->\n${table}\n<!-- settings:end -->`);
writeFileSync(file, next);
