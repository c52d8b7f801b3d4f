import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode();
const ruleId = 'sigma-6f3e2987-db24-4c78-a860-b4f4095a7095';

const twoRules = `title: Rar use
id: 6f3e2987-db24-4c78-a860-b4f4095a7095
status: test
level: high
logsource: {category: process_creation, product: windows}
detection:
  selection:
    Image|endswith: '\\rar.exe'
  condition: selection
---
title: Broken
id: 11111111-2222-3333-4444-555555555555
tags: [attack.T1059]
logsource: {category: process_creation, product: windows}
detection:
  selection:
    CommandLine|re: '(?<=x)y'
  condition: selection
`;

const converted = (stored: boolean, license?: string) => ({
  document: 0,
  status: 'converted',
  kind: 'rule',
  filters: [],
  warnings: [],
  lint: [],
  sigmaId: '6f3e2987-db24-4c78-a860-b4f4095a7095',
  title: 'Rar use',
  id: ruleId,
  stored,
  rule: {
    id: ruleId,
    name: 'Rar use',
    description: `Sigma rule "Rar use" 6f3e2987-db24-4c78-a860-b4f4095a7095${license ? ` (license: ${license})` : ''}.`,
    pdl: '(Event.System.Channel = "Microsoft-Windows-Sysmon/Operational" AND Event.System.EventID = 1) AND Event.EventData.Image = i"*\\\\rar.exe"',
    annotations: [
      'sigma.id=6f3e2987-db24-4c78-a860-b4f4095a7095',
      'sigma.level=high',
      'sigma.status=test',
      ...(license ? [`sigma.license=${license}`] : []),
    ],
    severity: 'high',
    enabled: true,
  },
});
const broken = {
  document: 1,
  status: 'error',
  sigmaId: '11111111-2222-3333-4444-555555555555',
  title: 'Broken',
  path: 'detection.selection.CommandLine|re',
  // the lint diagnostics of the document (docs/detection-as-code.md, "Lint")
  lint: [
    {
      code: 'SIGMA_ATTACK_INVALID',
      severity: 'error',
      message: "tag 'attack.T1059' is not a valid ATT&CK id: write 'attack.t1059'",
      line: 13,
      column: 8,
      endLine: 13,
      endColumn: 20,
      path: 'tags[0]',
      fix: {
        title: 'Write attack.t1059',
        edits: [{ range: { line: 13, column: 8, endLine: 13, endColumn: 20 }, text: 'attack.t1059' }],
      },
    },
  ],
  reason:
    "the regular expression cannot run in Weir (RE2 syntax, linear time): look-behind '(?<=' at column 1 of the regular expression: " +
    'Java regex syntax that needs backtracking, which Weir does not run (regular expressions run in linear time, RE2 syntax, so that no ' +
    'event can stall the stream); drop it and match the text itself, or test the condition with a separate query',
};

test('POST /api/import/sigma is admin only', async () => {
  await assertRefusals(t.node, t.tokens.user, 'POST', '/api/import/sigma', {
    adminOnly: true,
    body: { yaml: twoRules },
  });
});

test('a dry run: per document the rule, or the reason with its YAML path; nothing stored', async () => {
  const res = await t.node.call('POST', '/api/import/sigma', {
    token: t.tokens.admin,
    body: { yaml: twoRules, dryRun: true },
  });
  assert.deepEqual(
    [res.status, res.body],
    [
      200,
      { dryRun: true, mapping: 'evtx-json', converted: 1, failed: 1, stored: 0, results: [converted(false), broken] },
    ],
  );
  const rule = await t.node.call('GET', `/api/rules/${ruleId}`, { token: t.tokens.admin });
  assert.equal(rule.status, 404);
});

test('an import stores the converted rules (with the license); text/plain YAML takes its options in the query', async () => {
  const res = await t.node.call('POST', '/api/import/sigma?license=DRL-1.1', {
    token: t.tokens.admin,
    body: twoRules,
    contentType: 'text/plain',
  });
  const imported = converted(true, 'DRL-1.1');
  assert.deepEqual(
    [res.status, res.body],
    [200, { dryRun: false, mapping: 'evtx-json', converted: 1, failed: 1, stored: 1, results: [imported, broken] }],
  );
  const rule = await t.node.call('GET', `/api/rules/${ruleId}`, { token: t.tokens.user });
  assert.deepEqual([rule.status, rule.body], [200, imported.rule]);
});

test('bad requests say what is wrong: an unknown mapping, a mapping that is not a name, a long license', async () => {
  const { admin } = t.tokens;
  const unknown = await t.node.call('POST', '/api/import/sigma', {
    token: admin,
    body: { yaml: twoRules, mapping: 'nope' },
  });
  assert.deepEqual(
    [unknown.status, unknown.body],
    [
      400,
      badRequest(
        "Unknown mapping 'nope'; built in: evtx-json, padas, sigma, winlogbeat (or send your own as mappingYaml).",
      ),
    ],
  );
  const notAName = await t.node.call('POST', '/api/import/sigma', {
    token: admin,
    body: { yaml: twoRules, mapping: 7 },
  });
  assert.deepEqual(
    [notAName.status, notAName.body],
    [
      400,
      badRequest(
        'mapping must be the name of a mapping; built in: evtx-json, padas, sigma, winlogbeat (or send your own as mappingYaml).',
      ),
    ],
  );
  const license = await t.node.call('POST', '/api/import/sigma', {
    token: admin,
    body: { yaml: twoRules, dryRun: true, license: 'x'.repeat(1001) },
  });
  assert.deepEqual(
    [license.status, license.body],
    [400, badRequest('license must be at most 1000 characters (an SPDX identifier or a short text), found 1001.')],
  );
});

test('GET /api/import/sigma/mappings lists the built-in mappings to every user; one answers with its file', async () => {
  const list = await t.node.call('GET', '/api/import/sigma/mappings', { token: t.tokens.user });
  assert.deepEqual(
    [list.status, list.body],
    [
      200,
      [
        { name: 'evtx-json', description: 'Windows EVTX as JSON (Event.System, Event.EventData)', default: true },
        {
          name: 'padas',
          description:
            "The original product's data model: Winlogbeat/Sysmon events matched by event.code (a string), fields under winlog.event_data",
          default: false,
        },
        {
          name: 'sigma',
          description: 'Events with Sigma field names; log sources not checked (warned)',
          default: false,
        },
        { name: 'winlogbeat', description: 'Windows events as shipped by Winlogbeat (winlog.*)', default: false },
      ],
    ],
  );
  const one = await t.node.call('GET', '/api/import/sigma/mappings/sigma', { token: t.tokens.user });
  const file = readFileSync(new URL('../../../sigma/mappings/sigma.yml', import.meta.url), 'utf8');
  assert.deepEqual(
    [one.status, one.body],
    [
      200,
      {
        name: 'sigma',
        description: 'Events with Sigma field names; log sources not checked (warned)',
        default: false,
        yaml: file,
      },
    ],
  );
});

test('GET /api/import/sigma/mappings/{name}: an unknown name is 404 naming the built-in ones; no token is 401', async () => {
  const missing = await t.node.call('GET', '/api/import/sigma/mappings/nope', { token: t.tokens.user });
  assert.deepEqual(
    [missing.status, missing.body],
    [
      404,
      {
        status: 'NOT_FOUND',
        message: 'Resource not found',
        debugMessage: "No built-in Sigma mapping 'nope'; built in: evtx-json, padas, sigma, winlogbeat.",
      },
    ],
  );
  const anonymous = await t.node.call('GET', '/api/import/sigma/mappings');
  assert.equal(anonymous.status, 401);
});
