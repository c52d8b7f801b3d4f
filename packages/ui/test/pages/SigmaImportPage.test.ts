import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import {
  apiAs,
  initAdmin,
  publishDocScreenshots,
  seriousViolations,
  shoot,
  signIn,
  startConsole,
  tableRows,
  type Console,
} from '../helpers/console.ts';

/**
 * The Sigma import page in Debian's chromium against the real UI server, engine and broker, with
 * SigmaHQ's own rules (/work/shared/data/sigma): files dropped and a folder chosen, the built-in
 * mappings and an uploaded one, the dry run's status and reason per document, the import, the
 * field check against a topic of flat events, and the link to an imported rule.
 */
const sigmaHq = '/work/shared/data/sigma/rules/';
const xwizardFile = `${sigmaHq}windows/process_creation/proc_creation_win_xwizard_execution_non_default_location.yml`;
const base64File = `${sigmaHq}linux/process_creation/proc_creation_lnx_base64_decode.yml`;
const rarFile = `${sigmaHq}windows/process_creation/proc_creation_win_rar_compression_with_password.yml`;
const xwizard = 'sigma-193d5ccd-6f59-40c6-b5b0-8e32d5ddd3d1';
const base64 = 'sigma-e2072cab-8c9a-459b-b63c-40ae79e27031';
const rar = 'sigma-faa48cae-6b25-4f00-a094-08947fef582f';
const linuxRefused = (mapping: string) =>
  `logsource: the mapping '${mapping}' has no log source for product: linux, category: process_creation`;

/** A mapping of the user's own: flat events with Sigma's names, Sysmon process creation by `EventID`. */
const flatMapping = `name: flat-edr
description: 'Flat EDR events'
fieldTemplate: '{field}'
logsources:
  - match: {product: windows, category: process_creation}
    condition: 'EventID = 1'
`;

let c: Console;
let ctx: BrowserContext;
let page: Page;
let folder: string;
const engine = isolatedEngine('ui-sigma');
const topic = `${engine['weir.topic.prefix']}_edr`;
const password = 'grace-password-1';
const call = (method: string, url: string, body?: unknown) =>
  apiAs(page, { username: 'grace', password }, method, url, body);
const rows = () => tableRows(page, 'Sigma documents');

/** Drops files on the drop zone, as a user dragging them from their desktop does. */
async function drop(files: readonly { name: string; text: string }[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((files) => {
    const g = globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): void } } };
    const d = new g.DataTransfer();
    for (const f of files) d.items.add(new File([f.text], f.name, { type: 'application/yaml' }));
    return d;
  }, files);
  await page.getByTestId('sigma-dropzone').dispatchEvent('drop', { dataTransfer });
}

async function pickMapping(option: string): Promise<void> {
  await page
    .getByRole('textbox', { name: 'Mapping' })
    .or(page.getByRole('combobox', { name: 'Mapping' }))
    .first()
    .click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function preview(summary: string): Promise<void> {
  await page.getByRole('button', { name: 'Preview (dry run)' }).click();
  await page.getByTestId('sigma-summary').getByText(summary, { exact: true }).waitFor();
}

before(async () => {
  // A folder as a user keeps rules: a subfolder and a file that is not a rule.
  folder = mkdtempSync(path.join(os.tmpdir(), 'weir-sigma-ui-'));
  mkdirSync(path.join(folder, 'my-rules', 'collection'), { recursive: true });
  writeFileSync(path.join(folder, 'my-rules', 'collection', 'rar.yml'), readFileSync(rarFile));
  writeFileSync(path.join(folder, 'my-rules', 'README.md'), '# my rules\n');
  writeFileSync(path.join(folder, 'flat-edr.yml'), flatMapping);
  c = await startConsole({ ...engine, 'weir.engine.autostart': 'false' });
  ctx = await c.context('light');
  page = await ctx.newPage();
  assert.equal(await initAdmin(page, password), 201);
  const created = await call('POST', '/api/topics', { name: topic, numberOfPartitions: 2, replicationFactor: 1 });
  assert.equal(created.status, 201, created.text);
  // Flat events (Sigma's field names at the top), and one message that is not JSON.
  const messages = [
    ...Array.from({ length: 6 }, (_, i) => ({
      key: `k${i}`,
      value: {
        EventID: 1,
        Image: 'C:\\Tools\\rar.exe',
        OriginalFileName: 'rar.exe',
        CommandLine: `rar a -hp x${i}.rar`,
      },
    })),
    { key: 'text', value: 'user=bob action=login' },
  ];
  const produced = await call('POST', `/api/topics/${topic}/produce`, { messages });
  assert.equal(produced.status, 201, produced.text);
  // The calls above signed in through the UI server (its refresh cookie): sign in as a user does.
  await ctx.clearCookies();
  await signIn(page, 'grace', password);
});

after(async () => {
  await c?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
  publishDocScreenshots(['sigma-import-light']);
});

test('from the Rules page: files dropped and a folder chosen; files that are not YAML are named, not read', async () => {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Rules', exact: true }).click();
  await page.getByRole('button', { name: 'Import Sigma' }).click();
  await page.getByRole('heading', { name: 'Sigma import', exact: true }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/sigma-import');
  await drop([
    { name: 'xwizard.yml', text: readFileSync(xwizardFile, 'utf8') },
    { name: 'base64.yaml', text: readFileSync(base64File, 'utf8') },
    { name: 'notes.txt', text: 'not a rule' },
  ]);
  await page.getByText('2 files, 2 YAML documents').waitFor();
  await page.getByLabel('Sigma folder').setInputFiles(path.join(folder, 'my-rules'));
  await page.getByText('3 files, 3 YAML documents').waitFor();
  assert.deepEqual(await page.getByRole('list', { name: 'Chosen Sigma files' }).getByRole('listitem').allInnerTexts(), [
    'xwizard.yml',
    'base64.yaml',
    'my-rules/collection/rar.yml',
  ]);
  assert.equal(
    await page.getByTestId('sigma-skipped').innerText(),
    'Not read (not .yml or .yaml): notes.txt, my-rules/README.md',
  );
});

test('the dry run with the default mapping: each document`s status and reason, nothing stored; the mapping viewer', async () => {
  assert.equal(
    await page
      .getByRole('textbox', { name: 'Mapping' })
      .or(page.getByRole('combobox', { name: 'Mapping' }))
      .first()
      .inputValue(),
    'evtx-json (default)',
  );
  await preview('Dry run with mapping evtx-json: 2 converted, 1 failed; 2 rules to store, nothing stored yet.');
  assert.deepEqual(await rows(), [
    ['xwizard.yml', 'Xwizard.EXE Execution From Non-Default Location', 'converted', xwizard, ''],
    ['base64.yaml', 'Decode Base64 Encoded Text', 'error', '', linuxRefused('evtx-json')],
    ['my-rules/collection/rar.yml', 'Rar Usage with Password and Compression Level', 'converted', rar, ''],
  ]);
  assert.equal((await call('GET', `/api/rules/${xwizard}`)).status, 404);
  await page.getByRole('button', { name: 'View mapping' }).click();
  const shown = await page.getByLabel('Mapping file').innerText();
  assert.equal(
    shown.trim(),
    readFileSync(new URL('../../../sigma/mappings/evtx-json.yml', import.meta.url), 'utf8').trim(),
  );
  await pickMapping('sigma');
  await page.getByText('Events with Sigma field names; log sources not checked (warned)').first().waitFor();
  assert.match(await page.getByLabel('Mapping file').innerText(), /^# Sigma's own field names/);
  await page.getByRole('button', { name: 'Hide mapping' }).click();
  // A changed mapping drops the preview: the import always follows a dry run of what it stores.
  assert.equal(await page.getByRole('table', { name: 'Sigma documents' }).count(), 0);
  await preview('Dry run with mapping sigma: 3 converted, 0 failed; 3 rules to store, nothing stored yet.');
  assert.deepEqual((await rows())[1], [
    'base64.yaml',
    'Decode Base64 Encoded Text',
    'converted',
    base64,
    "the mapping 'sigma' has no log source for product: linux, category: process_creation: the rule has no log-source condition and may match events of other sources",
  ]);
});

test('the field check: with evtx-json, the rules read Event.* fields that the topic`s flat events never have', async () => {
  await pickMapping('evtx-json (default)');
  await preview('Dry run with mapping evtx-json: 2 converted, 1 failed; 2 rules to store, nothing stored yet.');
  await page
    .getByRole('textbox', { name: 'Topic to check against' })
    .or(page.getByRole('combobox', { name: 'Topic to check against' }))
    .first()
    .fill(topic);
  await page.getByRole('option', { name: topic, exact: true }).click();
  await page.getByRole('button', { name: 'Check fields' }).click();
  const hint = page.getByTestId('field-check');
  await hint.getByText(`Fields that never occur in ${topic}`).waitFor();
  const text = await hint.innerText();
  assert.match(
    text,
    new RegExp(
      `2 of 2 rules read fields that none of the 6 recent events of ${topic} has \\(1 message that is not a JSON object skipped\\)`,
    ),
  );
  assert.match(
    text,
    /Xwizard\.EXE Execution From Non-Default Location \(none of its 4 fields occurs\): Event\.System\.Channel, Event\.System\.EventID, Event\.EventData\.Image, Event\.EventData\.OriginalFileName\n+The events have EventID, Image, OriginalFileName instead: flat events with Sigma's field names fit the sigma mapping\./,
  );
  assert.match(text, /Rar Usage with Password and Compression Level \(none of its 3 fields occurs\)/);
  await shoot(page, 'sigma-import-light');
  await page.mouse.move(900, 880);
  assert.deepEqual(await seriousViolations(page), []);
});

test('an uploaded mapping fits the flat events; the import stores the rules and links them', async () => {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload a mapping' }).click();
  await (await chooser).setFiles(path.join(folder, 'flat-edr.yml'));
  await page.getByRole('button', { name: 'View mapping' }).click();
  assert.equal((await page.getByLabel('Mapping file').innerText()).trim(), flatMapping.trim());
  await preview('Dry run with mapping flat-edr: 2 converted, 1 failed; 2 rules to store, nothing stored yet.');
  assert.deepEqual((await rows())[1]?.[4], linuxRefused('flat-edr'));
  await page.getByRole('button', { name: 'Check fields' }).click();
  await page
    .getByTestId('field-check')
    .getByText(`Every field of the 2 rules occurs in the 6 recent events of ${topic}.`)
    .waitFor();
  await page.getByLabel('License').fill('DRL-1.1');
  await preview('Dry run with mapping flat-edr: 2 converted, 1 failed; 2 rules to store, nothing stored yet.');
  await page.getByRole('button', { name: 'Import 2 rules' }).click();
  await page
    .getByTestId('sigma-summary')
    .getByText('Imported with mapping flat-edr: 2 converted, 1 failed; 2 rules stored.')
    .waitFor();
  assert.deepEqual(
    (await rows()).map((r) => r.slice(2, 4)),
    [
      ['stored', xwizard],
      ['error', ''],
      ['stored', rar],
    ],
  );
  const stored = await call('GET', `/api/rules/${rar}`);
  assert.equal(stored.status, 200);
  assert.equal(
    (JSON.parse(stored.text) as { pdl: string }).pdl,
    'EventID = 1 AND (CommandLine ?= i" -hp" AND (CommandLine ?= i" -m" OR CommandLine ?= i" a "))',
  );
  await page.getByRole('link', { name: xwizard }).click();
  await page.getByRole('heading', { name: `Rule ${xwizard}`, exact: true }).waitFor();
  // Its metadata panel: test/components/SigmaMetadata.test.ts.
  await page.getByTestId('sigma-metadata').waitFor();
});
