import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';

const samples = path.resolve(import.meta.dirname, '../fixtures/original/docs-samples');
const bytes = (file: string) => readFileSync(path.join(samples, file));
const json = 'application/json';

/** The text of a JSON file whose strings hold raw line breaks, with each break written as `\n` (what a user fixes). */
function escapeRawNewlines(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' && text[i - 1] !== '\\') inString = !inString;
    out += inString && c === '\n' ? '\\n' : c;
  }
  return out;
}

/**
 * The sample files of the original's documentation (padasio/padas-docs, docs/assets/config/) sent
 * to the bulk endpoints as they are: valid files load; a broken one is refused with its exact place.
 */
describe("the original's documentation samples, bulk-loaded", () => {
  let t: TestNode;
  let token: string;
  before(async () => {
    t = await startTestNode();
    token = await t.initAdmin();
  });
  after(() => t.stop());

  test('PadasRules_sample.json: integer ids are accepted; rule 4 (a doubled quote in its PDL) is named with its PDL column', async () => {
    const res = await t.call('POST', '/api/bulk/rules', {
      token,
      contentType: json,
      body: bytes('PadasRules_sample.json'),
    });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual((res.body as { errors: unknown }).errors, [
      {
        index: 3,
        id: 4,
        errors: [
          'pdl: line 1, column 274: a quote right after the string "*cleanmgr.exe /autoclean" closed it; write \\" for a quote inside a string',
        ],
      },
    ]);
    // The other nine load as they are (a bulk is all or nothing): integer ids stored as text.
    const nine = (JSON.parse(bytes('PadasRules_sample.json').toString('utf8')) as { id: number }[]).filter(
      (r) => r.id !== 4,
    );
    const ok = await t.call('POST', '/api/bulk/rules', { token, body: nine });
    assert.equal(ok.status, 200, ok.text);
    const rules = ok.body as { id: string; pdl: string }[];
    assert.deepEqual(
      rules.map((r) => r.id),
      ['1', '2', '3', '5', '6', '7', '8', '9', '10'],
    );
    assert.equal(rules[0]!.pdl, 'process_path="C:\\\\Windows\\\\*\\\\at.exe"');
    assert.equal((await t.call('GET', '/api/rules/1', { token })).status, 200);
  });

  test('the apply-rules rules and task files load', async () => {
    const rules = await t.call('POST', '/api/bulk/rules', {
      token,
      contentType: json,
      body: bytes('PadasRules_apply_rules_winlogbeat_sysmon.json'),
    });
    assert.equal(rules.status, 200, rules.text);
    const tasks = await t.call('POST', '/api/bulk/tasks', {
      token,
      contentType: json,
      body: bytes('PadasTasks_apply_rules_winlogbeat_sysmon.json'),
    });
    assert.equal(tasks.status, 200, tasks.text);
    assert.deepEqual(
      (tasks.body as { id: number }[]).map((r) => r.id),
      [110],
    );
  });

  test('PadasTasks_transform_winlogbeat_sysmon.json (raw line breaks in JSON strings) is refused with the JSON position, line and column', async () => {
    const res = await t.call('POST', '/api/bulk/tasks', {
      token,
      contentType: json,
      body: bytes('PadasTasks_transform_winlogbeat_sysmon.json'),
    });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      status: 'BAD_REQUEST',
      message: 'Resource validation failed',
      debugMessage:
        'The request body is not valid JSON: Bad control character in string literal in JSON at position 662 (line 17 column 100)',
    });
    assert.deepEqual((await t.call('GET', '/api/tasks/100', { token })).status, 404, 'nothing of it was stored');
  });

  test('the same file with its line breaks escaped: the answer names each PDL problem by line and column', async () => {
    const fixed = escapeRawNewlines(bytes('PadasTasks_transform_winlogbeat_sysmon.json').toString('utf8'));
    const res = await t.call('POST', '/api/bulk/tasks', { token, contentType: json, body: fixed });
    assert.equal(res.status, 400, res.text);
    // Its no-break spaces (copied from a web page) are whitespace; what remains are PDL errors of the sample itself.
    assert.deepEqual((res.body as { errors: unknown }).errors, [
      { index: 1, id: 101, errors: ["definition.pdl: PDL line 14, column 171: unexpected character '\\'"] },
      { index: 2, id: 102, errors: ["definition.pdl: PDL line 1, column 45: unexpected character '.'"] },
    ]);
  });

  test('the pipeline naming a task no file defines is stored (references are resolved when the stream runs)', async () => {
    const res = await t.call('POST', '/api/bulk/pipelines', {
      token,
      contentType: json,
      body: bytes('PadasPipelines_transform_winlogbeat_sysmon.json'),
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual((res.body as { tasks: number[] }[])[0]!.tasks, [100, 101, 102, 103, 110]);
  });
});
