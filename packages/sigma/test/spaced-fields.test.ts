import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { compile, RuleIndex } from '@weir/pdl';
import { builtInMappingsUrl, convertSigma, MappingError, parseMapping } from '../src/index.ts';
import type { Mapping } from '../src/index.ts';
import { amsiDetection, defenderEvent, redSunFailure, withoutSpaces } from './defender-events.ts';
import { sharedData } from './shared-data.ts';

/**
 * Windows Defender writes its event data with spaces (`Threat Name`, `Source Name`, `Process
 * Name`) where Sigma rules write `ThreatName`: with the Windows mappings (their spacedFields) a
 * SigmaHQ Defender rule matches the event by either spelling (docs/sigma.md, "Mapping files").
 */
const builtIn = (name: string): Mapping =>
  parseMapping(readFileSync(new URL(`${name}.yml`, builtInMappingsUrl), 'utf8'));
const sigmaRule = (...p: string[]): string => readFileSync(sharedData('sigma', ...p), 'utf8');
const amsi = sigmaRule('rules', 'windows', 'builtin', 'windefend', 'win_defender_malware_detected_amsi_source.yml');
const redSun = sigmaRule(
  'rules-emerging-threats',
  '2026',
  'Exploits',
  'RedSun',
  'win_defender_exploit_redsun_tiering_engine_detected_as_eicar.yml',
);
const lsass = sigmaRule('rules', 'windows', 'builtin', 'windefend', 'win_defender_asr_lsass_access.yml');
const realTimeErrors = sigmaRule(
  'rules',
  'windows',
  'builtin',
  'windefend',
  'win_defender_real_time_protection_errors.yml',
);

function convertOne(yaml: string, mapping: Mapping): string {
  const [result] = convertSigma(yaml, { mapping });
  assert.equal(result?.status, 'converted', JSON.stringify(result));
  return result?.status === 'converted' ? result.rule.pdl : '';
}

for (const shape of ['evtx-json', 'winlogbeat'] as const) {
  describe(`Defender events with spaced field names, ${shape} mapping`, () => {
    const mapping = builtIn(shape);
    const matches = (yaml: string, eventId: number, data: Record<string, unknown>): boolean =>
      compile(convertOne(yaml, mapping)).run(defenderEvent(shape, eventId, data)) !== null;

    test('the AMSI rule (SourceName) matches a 1116 written with spaces and one written without', () => {
      assert.equal(matches(amsi, 1116, amsiDetection), true);
      assert.equal(matches(amsi, 1116, withoutSpaces(amsiDetection)), true);
      assert.equal(matches(amsi, 1116, { ...amsiDetection, 'Source Name': 'Real-Time Protection' }), false);
      assert.equal(matches(amsi, 1117, amsiDetection), false);
    });

    test('the RedSun rule (SourceName, ThreatName, ProcessName) matches a 1119 by each of its selections', () => {
      assert.equal(matches(redSun, 1119, redSunFailure), true);
      assert.equal(matches(redSun, 1119, withoutSpaces(redSunFailure)), true);
      // only the process selection holds: the path selection needs the threat name too
      const onlyProcess = { ...redSunFailure, 'Threat Name': 'Trojan:Win32/Wacatac.B!ml' };
      assert.equal(matches(redSun, 1119, onlyProcess), true);
      assert.equal(matches(redSun, 1119, { ...onlyProcess, 'Process Name': 'C:\\Tools\\x.exe' }), false);
      assert.equal(matches(redSun, 1119, { ...redSunFailure, 'Source Name': 'AMSI' }), false);
    });

    test("a filter on a spaced field (the ASR LSASS rule's ProcessName filters) excludes by the spaced spelling", () => {
      const asr = (processName: string): Record<string, unknown> => ({
        'Product Name': 'Microsoft Defender Antivirus',
        ID: '9E6C4E1F-7D60-472F-BA1A-A39EF669E4B2',
        Path: 'C:\\Windows\\System32\\lsass.exe',
        'Process Name': processName,
      });
      assert.equal(matches(lsass, 1121, asr('C:\\Users\\bob\\mimikatz.exe')), true);
      assert.equal(matches(lsass, 1121, asr('C:\\Windows\\System32\\svchost.exe')), false);
      assert.equal(matches(lsass, 1121, withoutSpaces(asr('C:\\Windows\\System32\\svchost.exe'))), false);
      assert.equal(matches(lsass, 1121, asr('C:\\Program Files\\Vendor\\agent.exe')), false);
    });

    test('Feature_Name (written with an underscore by the rule) is the event’s Feature Name', () => {
      const failure = (feature: string, reason: string) => ({
        'Feature Name': feature,
        Reason: reason,
        'Feature ID': '1',
      });
      assert.equal(matches(realTimeErrors, 3002, failure('%%886', '%%892')), false);
      assert.equal(matches(realTimeErrors, 3002, failure('%%845', '%%892')), true);
    });

    test('the rule index keeps both rules indexed and finds each for its event by either spelling', () => {
      const rules = [amsi, redSun].map((yaml) => compile(convertOne(yaml, mapping)));
      const index = new RuleIndex(rules);
      assert.equal(index.indexedCount, 2);
      assert.deepEqual(index.candidates(defenderEvent(shape, 1116, amsiDetection)), [0]);
      assert.deepEqual(index.candidates(defenderEvent(shape, 1116, withoutSpaces(amsiDetection))), [0]);
      assert.deepEqual(index.candidates(defenderEvent(shape, 1119, redSunFailure)), [1]);
    });
  });
}

describe('spacedFields in a mapping', () => {
  const mapping = parseMapping(
    "name: m\nfieldTemplate: 'data.{field}'\nfields: {ProcessName: proc}\nspacedFields: ['Threat Name', 'Old Value']\nunmappedLogsource: warn\n",
  );
  const convert = (detection: string): string =>
    convertOne(`title: t\nlogsource: {product: x}\ndetection:\n${detection}`, mapping);

  test('a test false on a missing field becomes an OR of the spellings, one true on it an AND', () => {
    assert.equal(
      convert("  s:\n    ThreatName|endswith: ['a', 'b']\n  condition: s"),
      'data.ThreatName IN [i"*a", i"*b"] OR data.`Threat Name` IN [i"*a", i"*b"]',
    );
    assert.equal(
      convert("  s:\n    Threat_Name|neq: 'x'\n  condition: s"),
      'NOT data.Threat_Name = i"x" AND NOT data.`Threat Name` = i"x"',
    );
    assert.equal(
      convert('  s:\n    ThreatName|exists: false\n  condition: s'),
      'data.ThreatName = null AND data.`Threat Name` = null',
    );
    assert.equal(
      convert('  s:\n    ThreatName|exists: true\n  condition: s'),
      'data.ThreatName != null OR data.`Threat Name` != null',
    );
    assert.equal(
      convert("  s:\n    ThreatName: [null, 'x']\n  condition: s"),
      '(data.ThreatName = null OR data.ThreatName = i"x") AND (data.`Threat Name` = null OR data.`Threat Name` = i"x")',
    );
    assert.equal(
      convert('  s:\n    ThreatName|fieldref: OldValue\n  condition: s'),
      '(data.ThreatName = data.OldValue OR data.ThreatName = data.`Old Value`) OR (data.`Threat Name` = data.OldValue OR data.`Threat Name` = data.`Old Value`)',
    );
  });

  test('the rule index keys an item on a spaced field by both spellings', () => {
    const index = new RuleIndex([compile(convert("  s:\n    ThreatName|endswith: 'EICAR_Test_File'\n  condition: s"))]);
    assert.deepEqual(index.keysOf(0)?.keys, [
      'suffix data.ThreatName i"eicar_test_file"',
      'suffix data.Threat Name i"eicar_test_file"',
    ]);
    assert.deepEqual(index.candidates({ data: { 'Threat Name': 'Virus:DOS/EICAR_Test_File' } }), [0]);
    assert.deepEqual(index.candidates({ data: { ThreatName: 'Virus:DOS/EICAR_Test_File' } }), [0]);
    assert.deepEqual(index.candidates({ data: { 'Threat Name': 'Virus:DOS/Other' } }), []);
  });

  test('each combined query means the item on the spelling the event has', () => {
    const cases: [string, Record<string, unknown>, boolean][] = [
      ["Threat_Name|neq: 'x'", { 'Threat Name': 'x' }, false],
      ["Threat_Name|neq: 'x'", { 'Threat Name': 'y' }, true],
      ["Threat_Name|neq: 'x'", {}, true],
      ['ThreatName|exists: false', { 'Threat Name': 'y' }, false],
      ['ThreatName|exists: false', {}, true],
      ["ThreatName: [null, 'x']", { 'Threat Name': 'x' }, true],
      ["ThreatName: [null, 'x']", { 'Threat Name': 'y' }, false],
      ['ThreatName|fieldref: OldValue', { 'Threat Name': 'v', 'Old Value': 'v' }, true],
      ['ThreatName|fieldref: OldValue', { ThreatName: 'v', 'Old Value': 'w' }, false],
    ];
    for (const [item, data, expected] of cases) {
      const pdl = convert(`  s:\n    ${item}\n  condition: s`);
      assert.equal(compile(pdl).run({ data }) !== null, expected, `${item} on ${JSON.stringify(data)}: ${pdl}`);
    }
  });

  test('a field the mapping places itself, or not listed, keeps one path', () => {
    assert.equal(
      convert("  s:\n    ProcessName: 'x'\n    Image: 'y'\n  condition: s"),
      'proc = i"x" AND data.Image = i"y"',
    );
  });

  test('a wrong spacedFields entry is refused, naming it', () => {
    assert.throws(
      () => parseMapping('name: m\nspacedFields: [ThreatName]'),
      new MappingError(
        'spacedFields[0] must be a field name with a space between words (such as \'Threat Name\'), found "ThreatName"',
      ),
    );
    assert.throws(
      () => parseMapping("name: m\nspacedFields: 'Threat Name'"),
      new MappingError('spacedFields must be a list of field names with spaces'),
    );
  });
});
