/**
 * What bench/sigma.ts (one core, in process) and bench/engine.ts's `sigma` part (the whole engine)
 * share: every SigmaHQ rule that converts with the EVTX-JSON mapping, as PDL text, and a corpus of
 * Windows events (SigmaHQ's regression events and generated variants of them).
 *
 * Corpus: the regression events (true positives, every 100th event) and variants: the same event
 * kinds (Sysmon EventIDs, Security, PowerShell...) whose EventData strings are taken from other
 * events of the same kind and mixed with benign values (common images, folders, command lines,
 * users, hosts), so field shapes, lengths and value spread are those of real events. Seeded: the
 * same count gives the same events in every run and in both benches.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { builtInMappingsUrl, convertSigma, parseMapping } from '../packages/sigma/src/index.ts';
import { sharedData } from '../packages/sigma/test/shared-data.ts';
import { prng } from './pdl-corpus.ts';

export type Json = Record<string, unknown>;

export interface SigmaRules {
  /** SigmaHQ rule files read. */
  readonly files: number;
  /** The PDL of every rule that converted, in file order. */
  readonly pdls: readonly string[];
  /** Rules that did not convert with an error (other products, or the reasons of docs/sigma.md). */
  readonly failed: number;
  readonly convertMs: number;
}

const walk = (d: string): string[] =>
  readdirSync(d).flatMap((n) => {
    const f = path.join(d, n);
    return statSync(f).isDirectory() ? walk(f) : f.endsWith('.yml') ? [f] : [];
  });
const folders = [
  'rules',
  'rules-emerging-threats',
  'rules-threat-hunting',
  'rules-compliance',
  'rules-dfir',
  'rules-placeholder',
];

/** Every SigmaHQ rule of the shared data that converts with evtx-json, as PDL. */
export function sigmaRules(): SigmaRules {
  const files = folders.flatMap((f) => walk(sharedData('sigma', f)));
  const mapping = parseMapping(readFileSync(new URL('evtx-json.yml', builtInMappingsUrl), 'utf8'));
  const start = performance.now();
  const pdls: string[] = [];
  let failed = 0;
  for (const f of files) {
    for (const r of convertSigma(readFileSync(f, 'utf8'), { mapping })) {
      if (r.status === 'converted') pdls.push(r.rule.pdl);
      else if (r.status === 'error') failed++;
    }
  }
  return { files: files.length, pdls, failed, convertMs: performance.now() - start };
}

/** SigmaHQ's regression events (one JSON object each), in directory order. */
export function regressionEvents(): Json[] {
  const out: Json[] = [];
  const collect = (d: string): void => {
    for (const n of readdirSync(d)) {
      const full = path.join(d, n);
      if (statSync(full).isDirectory()) collect(full);
      else if (n.endsWith('.json'))
        for (const part of readFileSync(full, 'utf8')
          .trim()
          .split(/\n(?=\{)/))
          out.push(JSON.parse(part) as Json);
    }
  };
  collect(sharedData('sigma', 'regression'));
  return out;
}

const BENIGN_IMAGES = [
  'C:\\Windows\\System32\\svchost.exe',
  'C:\\Windows\\explorer.exe',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE',
  'C:\\Windows\\System32\\RuntimeBroker.exe',
  'C:\\Windows\\System32\\taskhostw.exe',
  'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
  'C:\\Windows\\System32\\SearchIndexer.exe',
  'C:\\Windows\\System32\\conhost.exe',
  'C:\\Program Files\\Vendor\\Agent\\agent.exe',
  'C:\\Windows\\System32\\backgroundTaskHost.exe',
  'C:\\Windows\\System32\\dllhost.exe',
];
const BENIGN_ARGS = [
  '-k netsvcs -p',
  '--type=renderer --lang=en-US',
  '/background',
  '-Embedding',
  '/processid:{AB8902B4-09CA-4BB6-B78D-A8F59079A8D5}',
  '0xffffffff -ForceV1',
  '',
];
const USERS = Array.from({ length: 300 }, (_, i) => `CORP\\user${i}`);
const HOSTS = Array.from({ length: 200 }, (_, i) => `ws${i}.corp.example`);

/** `count` corpus events: every 100th a regression event (in turn), the others variants (seeded). */
export function sigmaEvents(count: number, regression: readonly Json[] = regressionEvents()): Json[] {
  const random = prng(1414);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;

  /** String values seen per (EventID, field) in the regression events: the pools variants draw from. */
  const pools = new Map<string, string[]>();
  for (const e of regression) {
    const ev = e.Event as { System: Json; EventData?: Json };
    for (const [k, v] of Object.entries(ev.EventData ?? {})) {
      if (typeof v !== 'string') continue;
      const key = `${String(ev.System.EventID)}/${k}`;
      (pools.get(key) ?? (pools.set(key, []).get(key) as string[])).push(v);
    }
  }

  function variant(): Json {
    const base = pick(regression);
    const ev = base.Event as { System: Json; EventData?: Json };
    const data: Json = {};
    for (const [k, v] of Object.entries(ev.EventData ?? {})) {
      if (typeof v !== 'string') {
        data[k] = v;
        continue;
      }
      const r = random();
      if (k === 'Image' || k === 'ParentImage' || k === 'SourceImage' || k === 'TargetImage')
        data[k] = r < 0.85 ? pick(BENIGN_IMAGES) : pick(pools.get(`${String(ev.System.EventID)}/${k}`) ?? [v]);
      else if (k === 'CommandLine' || k === 'ParentCommandLine')
        data[k] =
          r < 0.85
            ? `"${pick(BENIGN_IMAGES)}" ${pick(BENIGN_ARGS)}`
            : pick(pools.get(`${String(ev.System.EventID)}/${k}`) ?? [v]);
      else if (k === 'User') data[k] = pick(USERS);
      else if (r < 0.5) data[k] = pick(pools.get(`${String(ev.System.EventID)}/${k}`) ?? [v]);
      else data[k] = v;
    }
    return { Event: { ...(base.Event as Json), System: { ...ev.System, Computer: pick(HOSTS) }, EventData: data } };
  }

  return Array.from({ length: count }, (_, i) =>
    i % 100 === 0 ? (regression[(i / 100) % regression.length] as Json) : variant(),
  );
}
