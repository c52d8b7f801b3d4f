import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { convertSigma, parseMapping } from '@weir/sigma';
import { isLink, isSigmaMetadata, sigmaMetadata } from '../../src/lib/sigma-metadata.ts';

/** SigmaHQ's rule (/work/shared/data/sigma), converted as the import does: its description has two sentences on two lines. */
const sigmaRoot = '/work/shared/data/sigma/rules/windows/process_creation/';
function imported(file: string) {
  const mapping = parseMapping(readFileSync(new URL('../../../sigma/mappings/evtx-json.yml', import.meta.url), 'utf8'));
  const [result] = convertSigma(readFileSync(sigmaRoot + file, 'utf8'), { mapping, license: 'DRL-1.1' });
  assert.equal(result?.status, 'converted');
  return (result as Extract<typeof result, { status: 'converted' }>).rule;
}

test('an imported SigmaHQ rule: techniques, tactics, metadata, references and the description as written', () => {
  const rule = imported('proc_creation_win_xwizard_execution_non_default_location.yml');
  assert.deepEqual(sigmaMetadata(rule), {
    fromSigma: true,
    techniques: ['T1574.001'],
    tactics: [
      { shortName: 'privilege-escalation', name: 'Privilege Escalation', id: 'TA0004' },
      { shortName: 'persistence', name: 'Persistence', id: 'TA0003' },
      { shortName: 'execution', name: 'Execution', id: 'TA0002' },
      // Newer than the shipped ATT&CK table: named from the tag.
      { shortName: 'stealth', name: 'Stealth', id: undefined },
    ],
    otherTags: [],
    metadata: [
      { key: 'id', value: '193d5ccd-6f59-40c6-b5b0-8e32d5ddd3d1' },
      { key: 'level', value: 'high' },
      { key: 'status', value: 'test' },
      { key: 'author', value: 'Christian Burkard (Nextron Systems)' },
      { key: 'license', value: 'DRL-1.1' },
    ],
    references: [
      'https://lolbas-project.github.io/lolbas/Binaries/Xwizard/',
      'http://www.hexacorn.com/blog/2017/07/31/the-wizard-of-x-oppa-plugx-style/',
    ],
    description:
      'Detects the execution of Xwizard tool from a non-default directory.\n' +
      'When executed from a non-default directory, this utility can be abused in order to side load a custom version of "xwizards.dll".',
    attribution:
      'Sigma rule "Xwizard.EXE Execution From Non-Default Location" 193d5ccd-6f59-40c6-b5b0-8e32d5ddd3d1 by Christian Burkard (Nextron Systems) (license: DRL-1.1).',
  });
});

test('other tags (groups, software, CVEs, detection.*) go to the metadata panel, not the ATT&CK chips', () => {
  const m = sigmaMetadata({
    annotations: [
      'T1190',
      'attack.initial-access',
      'G0016',
      'S0005',
      'cve.2021-44228',
      'detection.emerging-threats',
      'sigma.level=critical',
    ],
    description: 'One line.\nSigma rule "X".',
  });
  assert.deepEqual(
    [m.techniques, m.tactics.map((t) => t.name), m.otherTags, m.description, m.attribution],
    [
      ['T1190'],
      ['Initial Access'],
      ['G0016', 'S0005', 'cve.2021-44228', 'detection.emerging-threats'],
      'One line.',
      'Sigma rule "X".',
    ],
  );
});

test('a rule written in Weir: not Sigma, its description whole, free-text annotations kept as tags', () => {
  assert.deepEqual(
    sigmaMetadata({ annotations: ['T1110', 'brute-force'], description: 'Sigma rule "looks like one" but is not.' }),
    {
      fromSigma: false,
      techniques: ['T1110'],
      tactics: [],
      otherTags: ['brute-force'],
      metadata: [],
      references: [],
      description: 'Sigma rule "looks like one" but is not.',
      attribution: undefined,
    },
  );
  assert.deepEqual(sigmaMetadata({}).description, '');
});

test('isSigmaMetadata and isLink', () => {
  assert.deepEqual(['sigma.id=x', 'sigma.reference=https://a', 'T1110', 'sigma.level'].map(isSigmaMetadata), [
    true,
    true,
    false,
    false,
  ]);
  assert.deepEqual(
    ['https://example.com/a?b=c', 'http://x', 'javascript:alert(1)', 'internal wiki page 4', 'https://a b'].map(isLink),
    [true, true, false, false, false],
  );
});
