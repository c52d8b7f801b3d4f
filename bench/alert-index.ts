/**
 * bench/alert-index: the alert index's ingest alone (AlertIndex.ingest in process, no broker, no
 * HTTP), the alerts of bench/alerts.ts in batches as the topic follower hands them over.
 * Run: `node_modules/.bin/node bench/alert-index.ts [alerts] [batch]` (defaults 200,000 and 10,000: about what one fetch of the node's follower brings, 2 × 2 MiB);
 * add `--cpu-prof` before the script for a profile. With `WEIR_BENCH_WRITER=1` the batches go through
 * the node's alert writer thread instead (AlertWriter: packed, transferred, written there; two
 * batches under way at once, as the follower hands them over): the process's CPU then includes the
 * thread's, and the main thread's own share is printed too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AlertIndex, type TopicRecord } from '../packages/engine/src/alerts/alert-index.ts';
import { AlertWriter } from '../packages/engine/src/alerts/alert-writer.ts';
import { alertRecord } from './alert-records.ts';

const count = Number(process.argv[2] ?? 200_000);
const batch = Number(process.argv[3] ?? 10_000);
const threaded = process.env.WEIR_BENCH_WRITER === '1';
const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-alert-index-'));
try {
  const index = new AlertIndex(dir, { days: 0, maxCount: 0 });
  const writer = threaded ? new AlertWriter({ location: dir, retention: { days: 0, maxCount: 0 } }) : undefined;
  if (writer) await writer.prune(); // the thread started and its connection open before the clock starts
  const applying: Promise<unknown>[] = [];
  const records: TopicRecord[] = [];
  for (let n = 0; n < count; n++)
    records.push({ partition: n % 2, offset: Math.floor(n / 2), value: Buffer.from(alertRecord(n, count)) });
  const cpu0 = process.cpuUsage();
  const main0 = process.threadCpuUsage();
  const t = performance.now();
  let last = t;
  for (let i = 0; i < count; i += batch) {
    const slice = records.slice(i, i + batch);
    const next = new Map([
      [0, (i + batch) / 2],
      [1, (i + batch) / 2],
    ]);
    if (writer) {
      applying.push(writer.ingest('weir_alerts', slice, next, 1));
      if (applying.length >= 2) await applying.shift();
    } else index.ingest('weir_alerts', slice, next);
    if ((i + batch) % 100_000 === 0) {
      const now = performance.now();
      console.log(
        `${(i + batch).toLocaleString('en-US')}: ${Math.round(100_000 / ((now - last) / 1000)).toLocaleString('en-US')} alerts/s over the last 100,000`,
      );
      last = now;
    }
  }
  await Promise.all(applying);
  const took = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const main = process.threadCpuUsage(main0);
  const cpuUs = (cpu.user + cpu.system) / count;
  console.log(
    `ingest: ${count.toLocaleString('en-US')} alerts in ${took.toFixed(1)} s: ${Math.round(count / took).toLocaleString('en-US')} alerts/s, ${cpuUs.toFixed(1)} CPU-µs per alert ` +
      (writer ? `(main thread ${((main.user + main.system) / count).toFixed(1)}; through the writer thread) ` : '') +
      `(batches of ${batch}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
  );
  await writer?.close();
  index.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
