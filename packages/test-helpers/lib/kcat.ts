import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { testBootstrap } from './test-node.ts';

const run = promisify(execFile);

/**
 * Every record value of a topic, read from the beginning to its current end by kcat (librdkafka), a
 * Kafka client independent of Weir's. With `committedOnly`, only records of committed transactions
 * (isolation.level=read_committed), as an exactly-once reader sees them.
 */
export async function kcatValues(topic: string, committedOnly = false, bootstrap = testBootstrap()): Promise<string[]> {
  const args = [
    '-C',
    '-b',
    bootstrap,
    '-t',
    topic,
    '-o',
    'beginning',
    '-e',
    '-q',
    '-f',
    '%s\n',
    '-X',
    `isolation.level=${committedOnly ? 'read_committed' : 'read_uncommitted'}`,
  ];
  const { stdout } = await run('kcat', args, { maxBuffer: 512 * 1024 * 1024, timeout: 120_000 });
  return stdout.split('\n').filter((line) => line.length > 0);
}

export interface PartitionMetadata {
  readonly partition: number;
  readonly leader: number;
  readonly replicas: number[];
  readonly isrs: number[];
}

/** The partitions of a topic as the cluster's metadata shows them to kcat. */
export async function kcatPartitions(topic: string, bootstrap = testBootstrap()): Promise<PartitionMetadata[]> {
  const { stdout } = await run('kcat', ['-b', bootstrap, '-L', '-J', '-t', topic, '-m', '10'], { timeout: 30_000 });
  const meta = JSON.parse(stdout) as {
    topics: {
      topic: string;
      partitions: { partition: number; leader: number; replicas: { id: number }[]; isrs: { id: number }[] }[];
    }[];
  };
  const found = meta.topics.find((t) => t.topic === topic);
  if (!found) throw new Error(`kcat: no metadata for topic ${topic}`);
  return found.partitions.map((p) => ({
    partition: p.partition,
    leader: p.leader,
    replicas: p.replicas.map((r) => r.id),
    isrs: p.isrs.map((r) => r.id),
  }));
}

/** The end offset of each partition (the sum: records written, transaction markers included), from kcat. */
export async function kcatEndOffsets(
  topic: string,
  partitions: number,
  bootstrap = testBootstrap(),
): Promise<number[]> {
  const args = ['-Q', '-b', bootstrap];
  for (let p = 0; p < partitions; p++) args.push('-t', `${topic}:${p}:-1`);
  const { stdout } = await run('kcat', args, { timeout: 30_000 });
  const offsets: number[] = new Array<number>(partitions).fill(0);
  for (const match of stdout.matchAll(/\[(\d+)\]\s+offset\s+(-?\d+)/g)) offsets[Number(match[1])] = Number(match[2]);
  return offsets;
}

/**
 * Each partition's offset at a time, from kcat -Q: `-2` the earliest offset still stored (the log
 * start), `-1` the end, else the first offset whose timestamp is at or after that many milliseconds
 * since the epoch.
 */
export async function kcatOffsetsAt(
  topic: string,
  partitions: number,
  at: number,
  bootstrap = testBootstrap(),
): Promise<number[]> {
  const args = ['-Q', '-b', bootstrap];
  for (let p = 0; p < partitions; p++) args.push('-t', `${topic}:${p}:${at}`);
  const { stdout } = await run('kcat', args, { timeout: 30_000 });
  const offsets: number[] = new Array<number>(partitions).fill(Number.NaN);
  for (const match of stdout.matchAll(/\[(\d+)\]\s+offset\s+(-?\d+)/g)) offsets[Number(match[1])] = Number(match[2]);
  return offsets;
}

/**
 * The lines kcat prints for every record of a topic, from its start to its current end, each as
 * `format` says (kcat's `-f`: `%s` value, `%k` key, `%p` partition, `%o` offset; end it with `\n`).
 */
export async function kcatLines(topic: string, format: string, bootstrap = testBootstrap()): Promise<string[]> {
  const { stdout } = await run(
    'kcat',
    ['-C', '-b', bootstrap, '-t', topic, '-o', 'beginning', '-e', '-q', '-f', format],
    {
      maxBuffer: 256 * 1024 * 1024,
      timeout: 60_000,
    },
  );
  return stdout.split('\n').filter((l) => l.length > 0);
}

/**
 * Writes each record with kcat: a line is an unkeyed value, a `[key, value]` pair a keyed one.
 * Sticky partitioning is off, so each unkeyed record picks its partition at random (with it a
 * whole batch would stick to one): unkeyed lines spread over the topic's partitions, as records
 * from many producers do; keyed ones go to their key's partition.
 */
export async function kcatProduce(
  topic: string,
  records: readonly (string | readonly [string, string])[],
  bootstrap = testBootstrap(),
): Promise<void> {
  const keyed = records.some((r) => typeof r !== 'string');
  const args = [
    '-P',
    '-b',
    bootstrap,
    '-t',
    topic,
    '-X',
    'sticky.partitioning.linger.ms=0',
    ...(keyed ? ['-K', '\t'] : []),
  ];
  const child = execFile('kcat', args);
  // keyed: a record without a key is written with an empty one
  const line = (r: string | readonly [string, string]) =>
    typeof r === 'string' ? (keyed ? `\t${r}` : r) : `${r[0]}\t${r[1]}`;
  child.stdin!.end(records.map(line).join('\n') + '\n');
  await new Promise<void>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`kcat -P exited with ${code}`)))),
  );
}
