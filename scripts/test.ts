/**
 * `npm test`: every unit test, then the integration tests against one real Kafka broker started for
 * the whole run (free ports, a temporary folder) and shared by every test file through
 * WEIR_TEST_BOOTSTRAP. A test file needs the broker when it lives in an `integration/` folder or uses
 * the broker helpers (`@weir/test-helpers/test-node`, `@weir/test-helpers/kafka`, the UI's `test/helpers/console.ts`), so a unit's Kafka test can sit
 * next to its other tests (`test/store/kafka-store.test.ts` mirrors `src/store/kafka-store.ts`). `npm test -- unit` runs the unit tests
 * only; other arguments select files. The fault tests (test/faults/) and the fuzz suite (test/fuzz/) are not part of it: `npm run test:faults` and `npm run test:fuzz` run them.
 * The exit code is node's test runner's, so CI fails when a test fails.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedBroker } from '../packages/engine/src/broker/embedded-broker.ts';

const root = path.resolve(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'faults' && name !== 'fuzz') out = out.concat(testFiles(full));
    } else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const args = process.argv.slice(2);
const unitOnly = args[0] === 'unit';
const selected = unitOnly ? [] : args;
const all = readdirSync(path.join(root, 'packages'))
  .map((p) => path.join(root, 'packages', p, 'test'))
  .filter((d) => {
    try {
      return statSync(d).isDirectory();
    } catch {
      return false;
    }
  })
  .flatMap(testFiles)
  .sort();
const usesBroker = (file: string) =>
  file.includes(`${path.sep}integration${path.sep}`) ||
  /from '(?:@weir\/test-helpers\/(?:test-node|kafka)|[^']*\/helpers\/console\.ts)'/.test(readFileSync(file, 'utf8'));
const files = (selected.length ? all.filter((f) => selected.some((s) => f.includes(s))) : all).filter(
  (f) => !unitOnly || !usesBroker(f),
);
if (files.length === 0) {
  // node --test without files would run every test it finds
  console.error(`no test file matches ${selected.map((s) => `'${s}'`).join(', ') || 'the unit tests'}`);
  process.exit(1);
}
const needsBroker = files.some(usesBroker);

let broker: EmbeddedBroker | undefined;
let brokerDir: string | undefined;
const env = { ...process.env };
if (needsBroker && !env.WEIR_TEST_BOOTSTRAP) {
  brokerDir = mkdtempSync(path.join(os.tmpdir(), 'weir-test-broker-'));
  broker = new EmbeddedBroker({ dir: brokerDir, internalPartitions: 1, log: (l) => console.log(`# ${l}`) });
  env.WEIR_TEST_BOOTSTRAP = await broker.start();
  env.WEIR_TEST_BROKER_DIR = brokerDir;
  env.WEIR_TEST_BROKER_PID = String(broker.pid);
}

const concurrency = process.env.WEIR_TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  [
    '--disable-warning=ExperimentalWarning',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-timeout=300000',
    ...files,
  ],
  { stdio: 'inherit', env, cwd: root },
);
const code: number = await new Promise((resolve) => child.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await broker?.stop();
if (brokerDir) rmSync(brokerDir, { recursive: true, force: true });
process.exit(code);
