/**
 * `npm run test:fuzz`: the fuzz suite (packages/engine/test/fuzz/, issue 13) against one real Kafka
 * broker started for the run: every API route of a node process with schema-generated and mutated
 * requests, and PDL texts, lookup files and properties files in process. The seed is printed
 * (WEIR_FUZZ_SEED replays a run); WEIR_FUZZ_PER_ROUTE, WEIR_FUZZ_PDL and WEIR_FUZZ_FILES set the
 * counts; WEIR_FUZZ_ROUTES limits the API run to some routes. Arguments select test files by name
 * (`npm run test:fuzz -- api-routes`). The exit code is node's test runner's: any failure (a 5xx, a
 * hang, a wrong error shape, a state change by a refused request) fails the run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedBroker } from '../packages/engine/src/broker/embedded-broker.ts';
import { fuzzSeed } from '../packages/engine/test/fuzz/rng.ts';

const root = path.resolve(import.meta.dirname, '..');
const fuzzDir = path.join(root, 'packages', 'engine', 'test', 'fuzz');
const files = readdirSync(fuzzDir)
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => process.argv.length <= 2 || process.argv.slice(2).some((a) => f.includes(a)))
  .sort()
  .map((f) => path.join(fuzzDir, f));
const seed = fuzzSeed();
console.log(`# fuzz seed ${seed} (replay: WEIR_FUZZ_SEED=${seed} npm run test:fuzz)`);

const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-fuzz-broker-'));
const broker = new EmbeddedBroker({ dir, internalPartitions: 1, log: (l) => console.log(`# ${l}`) });
let code: number;
try {
  const env = { ...process.env, WEIR_TEST_BOOTSTRAP: await broker.start(), WEIR_FUZZ_SEED: String(seed) };
  // The API run and the in-process run use different resources (the node process; this machine's CPU): side by side.
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--test', '--test-concurrency=2', '--test-timeout=3600000', ...files],
    { stdio: 'inherit', env, cwd: root },
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
  code = await new Promise((resolve) => child.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
} finally {
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
