/**
 * bench/alert-index: the alert index's ingest alone (AlertIndex.ingest in process, no broker, no
 * HTTP), the alerts of bench/alerts.ts in batches as the topic follower hands them over.
 * Run: `node_modules/.bin/node bench/alert-index.ts [alerts] [batch]` (defaults 200,000 and 10,000: about what one fetch of the node's follower brings, 2 × 2 MiB);
 * add `--cpu-prof` before the script for a profile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AlertIndex, type TopicRecord } from '../packages/engine/src/alerts/alert-index.ts';
import { alertRecord } from './alert-records.ts';

const count = Number(process.argv[2] ?? 200_000);
const batch = Number(process.argv[3] ?? 10_000);
const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-alert-index-'));
try {
  const index = new AlertIndex(dir, { days: 0, maxCount: 0 });
  const records: TopicRecord[] = [];
  for (let n = 0; n < count; n++)
    records.push({ partition: n % 2, offset: Math.floor(n / 2), value: Buffer.from(alertRecord(n, count)) });
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  let last = t;
  for (let i = 0; i < count; i += batch) {
    const slice = records.slice(i, i + batch);
    index.ingest(
      'weir_alerts',
      slice,
      new Map([
        [0, (i + batch) / 2],
        [1, (i + batch) / 2],
      ]),
    );
    if ((i + batch) % 100_000 === 0) {
      const now = performance.now();
      console.log(
        `${(i + batch).toLocaleString('en-US')}: ${Math.round(100_000 / ((now - last) / 1000)).toLocaleString('en-US')} alerts/s over the last 100,000`,
      );
      last = now;
    }
  }
  const took = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = (cpu.user + cpu.system) / count;
  console.log(
    `ingest: ${count.toLocaleString('en-US')} alerts in ${took.toFixed(1)} s: ${Math.round(count / took).toLocaleString('en-US')} alerts/s, ${cpuUs.toFixed(1)} CPU-µs per alert ` +
      `(batches of ${batch}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
  );
  index.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
