import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureKafkaJars, brokerDir } from './kafka-jars.ts';
import { canConnect, chooseBrokerPort, freePort } from './ports.ts';

export interface EmbeddedBrokerOptions {
  /** Folder holding the broker's data (`data/`), logs (`logs/`), its properties and cluster id. */
  readonly dir: string;
  /** Broker port; a free one is picked when absent (and remembered in `dir`). */
  readonly brokerPort?: number;
  /**
   * The port the settings name (`bootstrap.servers=localhost:9092`): used when `brokerPort` is
   * absent and the port is free; when taken, the remembered or a free port is used and logged.
   */
  readonly preferredPort?: number;
  readonly controllerPort?: number;
  /** Partitions of __consumer_offsets and __transaction_state (1 in tests, 50 by default). */
  readonly internalPartitions?: number;
  readonly startTimeoutMs?: number;
  readonly log?: (line: string) => void;
  /**
   * Secured listeners besides the PLAINTEXT one (tests of Kafka client security): each on
   * 127.0.0.1:<port>, its settings in `extraProperties` (`listener.name.<name lower-case>.*`, key
   * stores), SCRAM users created when the data folder is formatted.
   */
  readonly securedListeners?: readonly { readonly name: string; readonly protocol: 'SSL' | 'SASL_SSL'; readonly port: number }[];
  readonly extraProperties?: Readonly<Record<string, string>>;
  readonly scramUsers?: readonly { readonly mechanism: 'SCRAM-SHA-256' | 'SCRAM-SHA-512'; readonly username: string; readonly password: string }[];
}

interface BrokerLayout {
  readonly brokerPort: number;
  readonly controllerPort: number;
  readonly clusterId: string;
  /** The java process of the last start, so that a broker orphaned by a killed node can be stopped. */
  readonly pid?: number;
}

/**
 * A real Apache Kafka broker (one KRaft node, broker + controller) run as a child process from the
 * Maven Central jars. `start()` resolves once the broker port accepts connections.
 */
export class EmbeddedBroker {
  readonly #options: EmbeddedBrokerOptions;
  #child: ChildProcess | undefined;
  #layout: BrokerLayout | undefined;
  #exited: Promise<void> = Promise.resolve();

  constructor(options: EmbeddedBrokerOptions) {
    this.#options = options;
  }

  get bootstrapServers(): string {
    if (!this.#layout) throw new Error('the embedded broker has not started');
    return `127.0.0.1:${this.#layout.brokerPort}`;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  async start(): Promise<string> {
    const log = this.#options.log ?? (() => {});
    const lib = await ensureKafkaJars(log);
    const layout = await this.#prepare();
    const { dir } = this.#options;
    const propsFile = path.join(dir, 'server.properties');
    const dataDir = path.join(dir, 'data');
    const logsDir = path.join(dir, 'logs');
    mkdirSync(logsDir, { recursive: true });
    writeFileSync(propsFile, withSecuredListeners(renderProperties(layout, dataDir, this.#options.internalPartitions ?? 50), this.#options), { mode: 0o600 });
    const classpath = path.join(lib, '*');
    const log4j = path.join(brokerDir, 'log4j2.properties');
    const javaOpts = [`-Dlog4j2.configurationFile=${log4j}`, `-Dkafka.logs.dir=${logsDir}`];
    if (!existsSync(path.join(dataDir, 'meta.properties'))) {
      log(`formatting the embedded broker's data directory ${dataDir}`);
      await runToEnd('java', ['-Xmx256m', ...javaOpts, '-cp', classpath, 'kafka.tools.StorageTool', 'format',
        '-t', layout.clusterId, '-c', propsFile,
        ...(this.#options.scramUsers ?? []).flatMap((u) => ['--add-scram', `${u.mechanism}=[name=${u.username},password=${u.password}]`])]);
    }
    log(`starting Apache Kafka on 127.0.0.1:${layout.brokerPort}`);
    const child = spawn('java', ['-Xms128m', '-Xmx512m', '-XX:+UseSerialGC', ...javaOpts, '-cp', classpath,
      'kafka.Kafka', propsFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    writeFileSync(path.join(dir, 'broker.json'), JSON.stringify({ ...layout, pid: child.pid }, null, 2));
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8192);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let exitedEarly = false;
    child.once('exit', () => {
      exitedEarly = true;
    });
    const deadline = Date.now() + (this.#options.startTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (exitedEarly) throw new Error(`the embedded Kafka broker exited during start-up:\n${output}`);
      // The broker listener opens only once the broker can serve; the controller port opens earlier.
      if (await canConnect('127.0.0.1', layout.brokerPort, 500)) return this.bootstrapServers;
      await sleep(250);
    }
    await this.stop();
    throw new Error(`the embedded Kafka broker did not open port ${layout.brokerPort} within the start timeout:\n${output}`);
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  async stop(graceMs = 20_000): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await this.#exited;
    clearTimeout(timer);
  }

  /** Kills the broker at once (failure tests). */
  async kill(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await this.#exited;
  }

  /** Ports and cluster id are chosen once and kept in `dir`, so a restart finds its data again. */
  async #prepare(): Promise<BrokerLayout> {
    const file = path.join(this.#options.dir, 'broker.json');
    mkdirSync(this.#options.dir, { recursive: true });
    const saved: Partial<BrokerLayout> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    if (saved.pid) await stopOrphan(saved.pid, path.join(this.#options.dir, 'server.properties'), this.#options.log ?? (() => {}));
    const layout: BrokerLayout = {
      pid: undefined,
      brokerPort: this.#options.brokerPort ?? (await chooseBrokerPort(this.#options.preferredPort, saved.brokerPort, this.#options.log)),
      controllerPort: this.#options.controllerPort ?? saved.controllerPort ?? (await freePort()),
      clusterId: saved.clusterId ?? newClusterId(),
    };
    if (await canConnect('127.0.0.1', layout.brokerPort, 300)) {
      throw new Error(`port ${layout.brokerPort} for the embedded Kafka broker is already in use`);
    }
    writeFileSync(file, JSON.stringify(layout, null, 2));
    this.#layout = layout;
    return layout;
  }
}

/**
 * A broker left running by a node that was killed (SIGKILL gives it no chance to stop its child)
 * holds the ports and the data directory's lock. It is recognised by its pid and its command line
 * (this folder's server.properties), stopped with SIGTERM, and killed after 20 s.
 */
async function stopOrphan(pid: number, propsFile: string, log: (line: string) => void): Promise<void> {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\u0000', ' ');
  } catch {
    return; // not running (or no /proc): nothing to stop
  }
  if (!cmdline.includes('kafka.Kafka') || !cmdline.includes(propsFile)) return;
  log(`stopping the embedded Kafka broker left running by an earlier node (pid ${pid})`);
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // it ended on its own meanwhile
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + 20_000;
  while (existsSync(`/proc/${pid}`)) {
    if (Date.now() > deadline) {
      signal('SIGKILL');
      await sleep(500);
      break;
    }
    await sleep(200);
  }
}

/** 16 random bytes, base64url, never starting with '-' (the format tool would read it as a flag). */
function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function renderProperties(layout: BrokerLayout, dataDir: string, internalPartitions: number): string {
  const template = readFileSync(path.join(brokerDir, 'server.properties.template'), 'utf8');
  const values: Record<string, string> = {
    brokerPort: String(layout.brokerPort),
    controllerPort: String(layout.controllerPort),
    dataDir,
    internalPartitions: String(internalPartitions),
  };
  return template.replace(/\$\{(\w+)\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`server.properties.template: unknown placeholder ${key}`);
    return value;
  });
}

/** Adds the secured listeners and extra properties to the rendered server.properties. */
function withSecuredListeners(props: string, options: EmbeddedBrokerOptions): string {
  const listeners = options.securedListeners ?? [];
  if (listeners.length === 0 && !options.extraProperties) return props;
  const add = (key: string, extra: string[]) => props.replace(new RegExp(`^${key.replaceAll('.', '\\.')}=(.*)$`, 'm'), (_, v: string) => `${key}=${[v, ...extra].join(',')}`);
  props = add('listeners', listeners.map((l) => `${l.name}://127.0.0.1:${l.port}`));
  props = add('advertised.listeners', listeners.map((l) => `${l.name}://127.0.0.1:${l.port}`));
  props = add('listener.security.protocol.map', listeners.map((l) => `${l.name}:${l.protocol}`));
  return `${props}\n${Object.entries(options.extraProperties ?? {}).map(([k, v]) => `${k}=${v}`).join('\n')}\n`;
}

function runToEnd(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', (err) => reject(new Error(`${command} could not start (${err.message}); Java 17 is required`)));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.slice(-4).join(' ')} failed (${code}):\n${output}`))));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
