import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { compile } from '@weir/pdl';
import { builtInMappingsUrl, convertSigma, parseMapping } from '../src/index.ts';
import type { DocumentResult } from '../src/index.ts';
import { sharedData } from './shared-data.ts';

/**
 * Every SigmaHQ rule (shared/data/sigma/rules, converted once for the whole file): each converts
 * to PDL that compiles, or gets a precise reason with its YAML path; the converting share is pinned.
 */
const root = sharedData('sigma', 'rules');
const walk = (d: string): string[] =>
  readdirSync(d).flatMap((n) => {
    const f = path.join(d, n);
    return statSync(f).isDirectory() ? walk(f) : f.endsWith('.yml') ? [f] : [];
  });
const mapping = (name: string) => parseMapping(readFileSync(new URL(`${name}.yml`, builtInMappingsUrl), 'utf8'));

describe('SigmaHQ rules/', () => {
  const results = new Map<string, DocumentResult[]>();
  let files: string[] = [];
  before(() => {
    files = walk(root);
    const sigma = mapping('sigma');
    for (const f of files)
      results.set(f, convertSigma(readFileSync(f, 'utf8'), { mapping: sigma, license: 'DRL-1.1' }));
  });

  test('about 3,100 rule files are read', () => assert.ok(files.length > 3000, String(files.length)));

  test('every rule converts to compiling PDL, or fails with a reason and a YAML path', () => {
    for (const [file, docs] of results) {
      for (const d of docs) {
        if (d.status === 'error') {
          assert.ok(d.reason.length > 15, `${file}: ${d.reason}`);
          assert.ok(d.path.length > 0, `${file}: no path for '${d.reason}'`);
        } else if (d.status === 'converted') {
          assert.doesNotThrow(() => compile(d.rule.pdl), file);
          assert.match(d.rule.id, /^sigma-/);
          assert.ok(d.rule.annotations.includes(`sigma.id=${d.sigma.id}`), file);
          assert.ok(d.rule.annotations.includes('sigma.license=DRL-1.1'), file);
        }
      }
    }
  });

  test('the converting share is at least 99.5% (goal 95%)', () => {
    const ok = [...results.values()].filter((docs) => docs.every((d) => d.status !== 'error')).length;
    const share = ok / files.length;
    assert.ok(share >= 0.995, `share ${(share * 100).toFixed(2)}%`);
  });

  test('the rules that do not convert, and why', () => {
    const failures = [...results].flatMap(([f, docs]) =>
      docs.flatMap((d) => (d.status === 'error' ? [`${path.basename(f)} ${d.path}: ${d.reason}`] : [])),
    );
    assert.equal(failures.length, 3, failures.join('\n'));
    assert.equal(failures.filter((f) => f.includes('IPv6 network')).length, 2);
    assert.equal(failures.filter((f) => f.includes('characters long; the limit is 65536')).length, 1);
  });

  test('ATT&CK tags become technique ids in annotations', () => {
    const file = files.find((f) => f.endsWith('proc_creation_win_powershell_base64_encoded_cmd.yml'));
    const [doc] = results.get(file as string) ?? [];
    assert.equal(doc?.status, 'converted');
    if (doc?.status === 'converted') {
      assert.ok(doc.rule.annotations.includes('T1059.001'));
      assert.ok(doc.rule.annotations.includes('attack.execution'));
      assert.equal(doc.rule.name, 'Suspicious Encoded PowerShell Command Line');
      assert.match(doc.rule.description, /Florian Roth/);
    }
  });
});
