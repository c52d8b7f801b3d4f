import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);

/** The repository's broker/ folder: pom.xml and the config templates of the embedded broker. */
export const brokerDir = fileURLToPath(new URL('../../../../broker/', import.meta.url));

/** The Kafka version pinned in broker/pom.xml. */
export function kafkaVersion(): string {
  const pom = readFileSync(path.join(brokerDir, 'pom.xml'), 'utf8');
  const match = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(pom);
  if (!match) throw new Error('broker/pom.xml has no <kafka.version> property');
  return match[1]!;
}

/** Where the jars are cached: WEIR_KAFKA_CACHE, else ~/.cache/weir/kafka-<version>/lib. */
export function kafkaLibDir(version = kafkaVersion()): string {
  const base = process.env.WEIR_KAFKA_CACHE ?? path.join(os.homedir(), '.cache', 'weir');
  return path.join(base, `kafka-${version}`, 'lib');
}

/**
 * Fetches the broker's jars with Maven once and caches them. A marker file written last tells a
 * complete cache from an interrupted one, so a half-filled folder is fetched again.
 */
export async function ensureKafkaJars(log: (line: string) => void = () => {}): Promise<string> {
  const lib = kafkaLibDir();
  const marker = path.join(lib, '.complete');
  if (existsSync(marker)) return lib;
  const staging = `${lib}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.dirname(lib), { recursive: true });
  log(`fetching Apache Kafka ${kafkaVersion()} jars with Maven into ${lib}`);
  try {
    await run('mvn', ['-B', '-q', '-f', path.join(brokerDir, 'pom.xml'), 'dependency:copy-dependencies',
      '-DincludeScope=runtime', `-DoutputDirectory=${staging}`], { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { code?: string; stderr?: string; stdout?: string; message: string };
    if (e.code === 'ENOENT') throw new Error('Maven (mvn) is not on the PATH: it is needed once to fetch the embedded Kafka broker', { cause: err });
    throw new Error(`Maven could not fetch the Kafka jars: ${(e.stdout ?? '') + (e.stderr ?? '') || e.message}`, { cause: err });
  }
  if (!readdirSync(staging).some((f) => f.startsWith('kafka_2.13-'))) throw new Error(`Maven ran but ${staging} holds no Kafka jar`);
  writeFileSync(path.join(staging, '.complete'), new Date().toISOString());
  rmSync(lib, { recursive: true, force: true });
  renameSync(staging, lib);
  return lib;
}
