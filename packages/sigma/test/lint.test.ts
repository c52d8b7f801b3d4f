import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { lintSigma } from '../src/index.ts';
import { sharedData } from './shared-data.ts';

const walk = (d: string): string[] =>
  readdirSync(d).flatMap((n) => {
    const f = path.join(d, n);
    return statSync(f).isDirectory() ? walk(f) : f.endsWith('.yml') ? [f] : [];
  });
const brief = (text: string) =>
  lintSigma(text).map((d) => `${d.document}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.path}`);

describe('lintSigma', () => {
  test('the required fields of each kind of document', () => {
    assert.deepEqual(brief('title: t\nlogsource: {product: windows}\ndetection:\n  sel: {a: 1}\n'), [
      '0:3:1 error SIGMA_MISSING_FIELD detection',
    ]);
    assert.deepEqual(
      brief(
        'description: no title\n---\ntitle: c\ncorrelation: {type: event_count, rules: [a]}\n---\ntitle: f\nfilter: {}\n',
      ),
      [
        '0:1:1 error SIGMA_MISSING_FIELD ',
        '1:4:1 error SIGMA_MISSING_FIELD correlation',
        '2:6:1 error SIGMA_MISSING_FIELD ',
        '2:7:1 error SIGMA_MISSING_FIELD filter',
      ],
    );
    assert.match(
      lintSigma('description: x\n')[0]?.message ?? '',
      /a Sigma rule needs 'title', 'logsource', 'detection': missing/,
    );
    assert.deepEqual(brief('a: [\n'), ['0:2:1 error SIGMA_YAML ']);
  });

  test('unknown modifiers, with a fix when one is close', () => {
    const text =
      'title: t\nlogsource: {}\ndetection:\n  sel:\n    Image|endwith: x.exe\n    Cmd|base65|xyz: a\n  condition: sel\n';
    const [first, second, third] = lintSigma(text);
    assert.deepEqual(first, {
      code: 'SIGMA_UNKNOWN_MODIFIER',
      severity: 'error',
      message: "unknown modifier 'endwith' (did you mean 'endswith'?)",
      line: 5,
      column: 5,
      endLine: 5,
      endColumn: 18,
      document: 0,
      path: 'detection.sel.Image|endwith',
      fix: {
        title: 'Write Image|endswith',
        edits: [{ range: { line: 5, column: 5, endLine: 5, endColumn: 18 }, text: 'Image|endswith' }],
      },
    });
    assert.equal(second?.message, "unknown modifier 'base65' (did you mean 'base64'?)");
    assert.equal(third?.message, "unknown modifier 'xyz'");
    assert.equal(third?.fix, undefined);
  });

  test('tags: the pattern, ATT&CK ids, and ids the shipped table does not know', () => {
    const text = [
      'title: t',
      'logsource: {}',
      'detection: {sel: {a: 1}, condition: sel}',
      'tags:',
      '  - attack.t1059.001',
      '  - attack.execution',
      '  - attack.T1059',
      '  - T1003',
      '  - attack.t1059.1',
      '  - attack.foo_bar',
      '  - attack.t1690',
      '  - attack.stealth',
      '  - attack.t1086',
      '  - attack.g0010',
      '  - Custom Tag',
      '  - cve.2021-44228',
    ].join('\n');
    assert.deepEqual(
      lintSigma(text).map((d) => [d.path, d.severity, d.code, d.fix?.edits[0]?.text]),
      [
        ['tags[2]', 'error', 'SIGMA_ATTACK_INVALID', 'attack.t1059'],
        ['tags[3]', 'error', 'SIGMA_ATTACK_INVALID', 'attack.t1003'],
        ['tags[4]', 'error', 'SIGMA_ATTACK_INVALID', 'attack.t1059.001'],
        ['tags[5]', 'error', 'SIGMA_ATTACK_INVALID', undefined],
        ['tags[6]', 'warning', 'SIGMA_ATTACK_UNKNOWN', undefined],
        ['tags[7]', 'warning', 'SIGMA_ATTACK_UNKNOWN', undefined],
        ['tags[8]', 'warning', 'SIGMA_ATTACK_RETIRED', undefined],
        ['tags[10]', 'error', 'SIGMA_TAG_FORMAT', undefined],
      ],
    );
    const messages = lintSigma(text).map((d) => d.message);
    assert.ok(
      messages.includes("ATT&CK technique T1690 is not in Weir's ATT&CK table (v18.1); it may be newer than the table"),
    );
    assert.ok(messages.includes('ATT&CK technique T1086 (PowerShell) is retired or revoked in ATT&CK v18.1'));
  });

  test('values and deprecated forms', () => {
    const text = [
      'title: t',
      'status: deprecated',
      'level: severe',
      'date: 2019/03/04',
      'modified: 2019-13-01',
      'logsource: {}',
      'detection:',
      '  sel: {a: 1}',
      '  timeframe: 5m',
      '  condition: sel | count() > 5',
    ].join('\n');
    assert.deepEqual(
      lintSigma(text).map((d) => [d.line, d.severity, d.code, d.fix?.edits[0]?.text]),
      [
        [2, 'warning', 'SIGMA_DEPRECATED', undefined],
        [3, 'error', 'SIGMA_INVALID_VALUE', undefined],
        [4, 'warning', 'SIGMA_DEPRECATED', '2019-03-04'],
        [5, 'error', 'SIGMA_INVALID_VALUE', undefined],
        [9, 'warning', 'SIGMA_DEPRECATED', undefined],
        [10, 'warning', 'SIGMA_DEPRECATED', undefined],
      ],
    );
  });

  test('the SigmaHQ rule sets: no errors (warnings counted)', (t) => {
    const base = sharedData('sigma');
    const files = readdirSync(base)
      .filter((d) => d.startsWith('rules'))
      .flatMap((d) => walk(path.join(base, d)));
    assert.ok(files.length > 3500, String(files.length));
    const counts = new Map<string, number>();
    const errors: string[] = [];
    for (const file of files)
      for (const d of lintSigma(readFileSync(file, 'utf8'))) {
        counts.set(`${d.severity} ${d.code}`, (counts.get(`${d.severity} ${d.code}`) ?? 0) + 1);
        if (d.severity === 'error') errors.push(`${file}:${d.line}:${d.column} ${d.code} ${d.message}`);
      }
    assert.deepEqual(errors, []);
    // Only tactics and techniques newer than the shipped table (ATT&CK v18.1) are warned about.
    assert.deepEqual([...counts.keys()], ['warning SIGMA_ATTACK_UNKNOWN']);
    t.diagnostic(`${files.length} files: ${JSON.stringify(Object.fromEntries(counts))}`);
  });
});

test('a YAML alias bomb is one SIGMA_YAML error of its document, not a crash', () => {
  const bomb =
    'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n' +
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';
  const found = lintSigma(bomb);
  assert.deepEqual(
    found.map((d) => [d.code, d.severity, d.document]),
    [['SIGMA_YAML', 'error', 0]],
  );
  assert.match(found[0]!.message, /^not a usable YAML document: Excessive alias count/);
});
