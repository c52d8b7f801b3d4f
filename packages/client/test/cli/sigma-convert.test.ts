import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { run } from '../../src/cli/main.ts';
import { builtInMappingNames, convertFiles, loadMapping } from '../../src/cli/sigma-convert.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-sigma-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const rule = `title: Whoami run
id: 5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11
logsource: { product: windows, category: process_creation }
detection:
  selection:
    Image|endswith: \\whoami.exe
  condition: selection
tags: [attack.t1033]
`;

test('sigma convert: each mapping names the fields its own way; a refused document keeps its reason and YAML path', () => {
  const file = path.join(dir, 'rules.yml');
  writeFileSync(
    file,
    `${rule}---\ntitle: Bad modifier\nlogsource: { product: windows }\ndetection:\n  sel:\n    Image|nosuch: x\n  condition: sel\n`,
  );
  assert.deepEqual(builtInMappingNames(), ['evtx-json', 'padas', 'sigma', 'winlogbeat']);
  const [evtx, bad] = convertFiles([file], loadMapping(undefined, undefined));
  assert.equal(evtx!.status, 'converted');
  assert.equal(evtx!.id, 'sigma-5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11');
  assert.match(evtx!.pdl!, /Event\.EventData\.Image = i"\*\\\\whoami\.exe"/);
  assert.ok(evtx!.annotations!.includes('T1033'));
  assert.equal(bad!.status, 'error');
  assert.equal(bad!.document, 1);
  assert.match(`${bad!.path} ${bad!.reason}`, /Image\|nosuch/);
  const [beat] = convertFiles([file], loadMapping('winlogbeat', undefined));
  assert.match(beat!.pdl!, /winlog\.event_data\.Image = i"\*\\\\whoami\.exe"/);
});

test('sigma convert: an unknown mapping or a broken mapping file is a usage error naming it', () => {
  assert.throws(
    () => loadMapping('nope', undefined),
    /unknown mapping 'nope'; built in: evtx-json, padas, sigma, winlogbeat/,
  );
  const broken = path.join(dir, 'mapping.yml');
  writeFileSync(broken, 'fields: [1, 2\n');
  assert.throws(() => loadMapping(undefined, broken), new RegExp(broken.replaceAll('/', '\\/')));
  assert.throws(() => loadMapping('evtx-json', broken), /not both/);
});

test('weirctl sigma convert prints each document whole: the full PDL, the reason with its path; exit 1 when one failed', async () => {
  const file = path.join(dir, 'report.yml');
  writeFileSync(
    file,
    `${rule}---\ntitle: Bad modifier\nlogsource: { product: windows }\ndetection:\n  sel:\n    Image|nosuch: x\n  condition: sel\n`,
  );
  let out = '';
  let err = '';
  const io = {
    out: (s: string) => void (out += s),
    err: (s: string) => void (err += s),
    env: {},
    signal: new AbortController().signal,
  };
  const code = await run(['sigma', 'convert', file], io);
  const [pdl] = convertFiles([file], loadMapping(undefined, undefined)).map((r) => r.pdl);
  assert.ok(pdl!.length > 100, 'a PDL longer than any table cell');
  assert.equal(
    out,
    `${file}#0  converted  sigma-5f1a7e2c-0b1d-4c4e-9a51-3c2d7c9e0a11  Whoami run\n  ${pdl}\n\n` +
      `${file}#1  error  Bad modifier\n  detection.sel.Image|nosuch: ${convertFiles([file], loadMapping(undefined, undefined))[1]!.reason}\n`,
  );
  assert.ok(!out.includes('…'), 'nothing is cut');
  assert.equal(err, '1 Sigma document(s) could not be converted\n');
  assert.equal(code, 1);
});
