/**
 * `npm run test:faults`: the fault tests (packages/engine/test/faults/), which kill nodes and brokers
 * with SIGKILL and take minutes, against a three-node Kafka cluster started for the run (free ports,
 * a temporary folder) and stopped at the end. Tests reach it through WEIR_TEST_BOOTSTRAP and, to kill
 * and restart one of its brokers, WEIR_TEST_CLUSTER_DIR. The files run one at a time: each starts
 * real node processes and measures failover, which a concurrent file would disturb. Arguments select
 * files, WEIR_TEST_NAME_PATTERN tests by name. The exit code is node's test runner's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KafkaCluster } from '@weir/test-helpers/kafka-cluster';

const root = path.resolve(import.meta.dirname, '..');
const faultsDir = path.join(root, 'packages', 'engine', 'test', 'faults');
const selected = process.argv.slice(2);
const files = readdirSync(faultsDir)
  .filter((f) => f.endsWith('.test.ts'))
  .sort()
  .map((f) => path.join(faultsDir, f))
  .filter((f) => selected.length === 0 || selected.some((s) => f.includes(s)));

if (spawnSync('kcat', ['-V']).error) {
  console.error('kcat is not on the PATH: the fault tests count records with it (Debian: apt-get install kcat)');
  process.exit(2);
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-fault-cluster-'));
const cluster = await KafkaCluster.create(dir, 3, (l) => console.log(`# ${l}`));
let code: number;
try {
  const started = Date.now();
  const bootstrap = await cluster.start();
  console.log(
    `# three-node Kafka cluster on ${bootstrap} (started in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  const env = { ...process.env, WEIR_TEST_BOOTSTRAP: bootstrap, WEIR_TEST_CLUSTER_DIR: dir };
  const child = spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      '--test',
      '--test-concurrency=1',
      '--test-timeout=600000',
      // WEIR_TEST_NAME_PATTERN=<regex>: only the tests whose name matches (a fault to look into again)
      ...(process.env.WEIR_TEST_NAME_PATTERN ? [`--test-name-pattern=${process.env.WEIR_TEST_NAME_PATTERN}`] : []),
      ...files,
    ],
    { stdio: 'inherit', env, cwd: root },
  );
  // Interrupted: end the tests (their node processes stop when their parent goes), then the cluster.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
  code = await new Promise((resolve) => child.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
} finally {
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
