import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { kafkaLibDir, kafkaVersion } from '@weir/engine';
import { testBootstrap } from './test-node.ts';

const run = promisify(execFile);

/**
 * Kafka's own command-line tools (kafka-tools-<version>.jar, beside the broker's cached jars, fetched
 * once from Maven Central): the independent check of consumer groups' offsets and lag.
 */
async function toolsJar(): Promise<string> {
  const version = kafkaVersion();
  const jar = path.join(path.dirname(kafkaLibDir(version)), 'tools', `kafka-tools-${version}.jar`);
  if (existsSync(jar)) return jar;
  const url = `https://repo1.maven.org/maven2/org/apache/kafka/kafka-tools/${version}/kafka-tools-${version}.jar`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not fetch ${url}: ${res.status}`);
  mkdirSync(path.dirname(jar), { recursive: true });
  const staging = `${jar}.partial-${process.pid}`;
  writeFileSync(staging, Buffer.from(await res.arrayBuffer()));
  renameSync(staging, jar);
  return jar;
}

export interface ToolPartitionRow {
  readonly topic: string;
  readonly partition: number;
  /** null where the tool prints `-` (nothing committed). */
  readonly currentOffset: number | null;
  readonly logEndOffset: number;
  readonly lag: number | null;
  /** The consumer id, or null where the tool prints `-`. */
  readonly consumerId: string | null;
}

/** Kafka's ConsumerGroupCommand with `args` after `--bootstrap-server`: its standard output. */
async function consumerGroupCommand(bootstrap: string, args: readonly string[]): Promise<string> {
  const classpath = `${path.join(kafkaLibDir(), '*')}${path.delimiter}${await toolsJar()}`;
  const { stdout } = await run(
    'java',
    [
      '-Xmx128m',
      '-cp',
      classpath,
      'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand',
      '--bootstrap-server',
      bootstrap,
      ...args,
    ],
    { timeout: 60_000 },
  );
  return stdout;
}

/** `kafka-consumer-groups --list`: every group's id, sorted. */
export async function kafkaConsumerGroupsList(bootstrap = testBootstrap()): Promise<string[]> {
  const stdout = await consumerGroupCommand(bootstrap, ['--list']);
  return stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .sort();
}

/** `kafka-consumer-groups --describe --group <group>`: one row per partition, sorted by topic and partition. */
export async function kafkaConsumerGroupsDescribe(
  group: string,
  bootstrap = testBootstrap(),
): Promise<ToolPartitionRow[]> {
  const stdout = await consumerGroupCommand(bootstrap, ['--describe', '--group', group]);
  const value = (s: string | undefined) => (s === undefined || s === '-' ? null : s);
  const rows: ToolPartitionRow[] = [];
  for (const line of stdout.split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (cols[0] !== group || cols.length < 6) continue;
    const [, topic, partition, current, end, lag, consumerId] = cols;
    rows.push({
      topic: topic!,
      partition: Number(partition),
      currentOffset: value(current) === null ? null : Number(current),
      logEndOffset: Number(end),
      lag: value(lag) === null ? null : Number(lag),
      consumerId: value(consumerId),
    });
  }
  return rows.sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
}

/** `kafka-configs --describe` of a topic: the settings set on the topic itself (its dynamic configs). */
export async function kafkaConfigsDescribe(
  topic: string,
  bootstrap = testBootstrap(),
): Promise<Record<string, string>> {
  const { stdout } = await run(
    'java',
    [
      '-Xmx128m',
      '-cp',
      path.join(kafkaLibDir(), '*'),
      'kafka.admin.ConfigCommand',
      '--bootstrap-server',
      bootstrap,
      '--entity-type',
      'topics',
      '--entity-name',
      topic,
      '--describe',
    ],
    { timeout: 60_000 },
  );
  const out: Record<string, string> = {};
  for (const match of stdout.matchAll(/^\s+([a-z0-9.]+)=(\S*) sensitive=/gm)) out[match[1]!] = match[2]!;
  return out;
}
