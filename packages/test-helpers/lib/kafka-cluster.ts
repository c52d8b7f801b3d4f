import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brokerDir, canConnect, ensureKafkaJars, freePort } from '@weir/engine';

const run = promisify(execFile);

interface ClusterNode {
  readonly id: number;
  readonly brokerPort: number;
  readonly controllerPort: number;
  /** The java process of the node's last start. */
  pid?: number;
}

interface ClusterLayout {
  readonly clusterId: string;
  readonly nodes: ClusterNode[];
}

/**
 * A real three-node Apache Kafka cluster on this machine for the fault tests: three KRaft nodes,
 * each broker and controller in one JVM with a small heap, replication factor 3 by default. Its
 * layout (ports, cluster id, pids) is kept in `dir/cluster.json`, so the harness that created it and
 * a test that kills and restarts one node (`KafkaCluster.open(dir)`) work on the same processes.
 * The JVMs run detached with their output in files: they outlive the process that started them
 * until `stop()`.
 */
export class KafkaCluster {
  readonly dir: string;
  #layout: ClusterLayout;
  readonly #log: (line: string) => void;

  private constructor(dir: string, layout: ClusterLayout, log: (line: string) => void) {
    this.dir = dir;
    this.#layout = layout;
    this.#log = log;
  }

  /** Picks free ports, formats the three data folders. */
  static async create(dir: string, size = 3, log: (line: string) => void = () => {}): Promise<KafkaCluster> {
    mkdirSync(dir, { recursive: true });
    const nodes: ClusterNode[] = [];
    for (let id = 1; id <= size; id++)
      nodes.push({ id, brokerPort: await freePort(), controllerPort: await freePort() });
    const cluster = new KafkaCluster(dir, { clusterId: newClusterId(), nodes }, log);
    const lib = await ensureKafkaJars(log);
    await Promise.all(
      nodes.map((node) =>
        run(
          'java',
          [
            '-Xmx128m',
            '-XX:TieredStopAtLevel=1',
            ...cluster.#javaOpts(node),
            '-cp',
            path.join(lib, '*'),
            'kafka.tools.StorageTool',
            'format',
            '-t',
            cluster.#layout.clusterId,
            '-c',
            cluster.#writeProperties(node),
          ],
          { maxBuffer: 4 * 1024 * 1024 },
        ),
      ),
    );
    cluster.#save();
    return cluster;
  }

  /** The cluster the harness created in `dir` (tests get it through WEIR_TEST_CLUSTER_DIR). */
  static open(dir: string, log: (line: string) => void = () => {}): KafkaCluster {
    return new KafkaCluster(
      dir,
      JSON.parse(readFileSync(path.join(dir, 'cluster.json'), 'utf8')) as ClusterLayout,
      log,
    );
  }

  get bootstrapServers(): string {
    return this.#layout.nodes.map((n) => `127.0.0.1:${n.brokerPort}`).join(',');
  }

  get nodeIds(): number[] {
    return this.#layout.nodes.map((n) => n.id);
  }

  /** Starts every node that is not running and waits until all of them serve as brokers. */
  async start(timeoutMs = 120_000): Promise<string> {
    this.#reload();
    for (const node of this.#layout.nodes) if (!isRunning(node.pid)) await this.#spawn(node);
    await this.#waitForBrokers(
      this.#layout.nodes.map((n) => n.id),
      timeoutMs,
    );
    return this.bootstrapServers;
  }

  /** Starts one node again (after `kill`) and waits until the cluster lists it as a broker. */
  async startNode(id: number, timeoutMs = 120_000): Promise<void> {
    this.#reload();
    const node = this.#node(id);
    if (!isRunning(node.pid)) await this.#spawn(node);
    await this.#waitForBrokers([id], timeoutMs);
  }

  /** SIGKILL of one node's JVM; resolves once the process is gone. */
  async kill(id: number): Promise<void> {
    this.#reload();
    const node = this.#node(id);
    if (!isRunning(node.pid)) return;
    process.kill(node.pid!, 'SIGKILL');
    await waitGone(node.pid!, 10_000);
  }

  /** SIGTERM to every node, SIGKILL after `graceMs`. */
  async stop(graceMs = 20_000): Promise<void> {
    this.#reload();
    const running = this.#layout.nodes.filter((n) => isRunning(n.pid));
    for (const node of running) signal(node.pid!, 'SIGTERM');
    await Promise.all(
      running.map(async (node) => {
        if (!(await waitGone(node.pid!, graceMs))) {
          signal(node.pid!, 'SIGKILL');
          await waitGone(node.pid!, 10_000);
        }
      }),
    );
  }

  /** Broker ids the cluster's metadata lists now, read with kcat (an independent client). */
  async liveBrokers(): Promise<number[]> {
    const { stdout } = await run('kcat', ['-b', this.bootstrapServers, '-L', '-J', '-m', '5'], { timeout: 15_000 });
    return (JSON.parse(stdout) as { brokers: { id: number }[] }).brokers.map((b) => b.id).sort();
  }

  async #waitForBrokers(ids: number[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const portsOpen = await Promise.all(ids.map((id) => canConnect('127.0.0.1', this.#node(id).brokerPort, 500)));
      if (portsOpen.every(Boolean)) {
        const live = await this.liveBrokers().catch((): number[] => []);
        if (ids.every((id) => live.includes(id))) return;
      }
      const dead = ids.map((id) => this.#node(id)).find((n) => !isRunning(n.pid));
      if (dead) throw new Error(`Kafka cluster node ${dead.id} exited during start-up:\n${this.#tail(dead)}`);
      if (Date.now() > deadline)
        throw new Error(`Kafka cluster nodes ${ids.join(', ')} did not serve within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  async #spawn(node: ClusterNode): Promise<void> {
    const lib = await ensureKafkaJars(this.#log);
    const props = this.#writeProperties(node);
    const out = openSync(path.join(this.#nodeDir(node), 'stdout.log'), 'a');
    this.#log(`starting Kafka cluster node ${node.id} on 127.0.0.1:${node.brokerPort}`);
    const child = spawn(
      'java',
      [
        '-Xms96m',
        '-Xmx384m',
        '-XX:+UseSerialGC',
        '-XX:TieredStopAtLevel=1',
        ...this.#javaOpts(node),
        '-cp',
        path.join(lib, '*'),
        'kafka.Kafka',
        props,
      ],
      { stdio: ['ignore', out, out], detached: true },
    );
    closeSync(out);
    child.unref();
    node.pid = child.pid;
    this.#save();
  }

  #javaOpts(node: ClusterNode): string[] {
    const logs = path.join(this.#nodeDir(node), 'logs');
    mkdirSync(logs, { recursive: true });
    return [`-Dlog4j2.configurationFile=${path.join(brokerDir, 'log4j2.properties')}`, `-Dkafka.logs.dir=${logs}`];
  }

  #writeProperties(node: ClusterNode): string {
    const template = readFileSync(path.join(brokerDir, 'cluster-node.properties.template'), 'utf8');
    const values: Record<string, string> = {
      nodeId: String(node.id),
      voters: this.#layout.nodes.map((n) => `${n.id}@127.0.0.1:${n.controllerPort}`).join(','),
      brokerPort: String(node.brokerPort),
      controllerPort: String(node.controllerPort),
      dataDir: path.join(this.#nodeDir(node), 'data'),
    };
    const file = path.join(this.#nodeDir(node), 'server.properties');
    writeFileSync(
      file,
      template.replace(/\$\{(\w+)\}/g, (_, key: string) => {
        const value = values[key];
        if (value === undefined) throw new Error(`cluster-node.properties.template: unknown placeholder ${key}`);
        return value;
      }),
    );
    return file;
  }

  #nodeDir(node: ClusterNode): string {
    const dir = path.join(this.dir, `node-${node.id}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  #node(id: number): ClusterNode {
    const node = this.#layout.nodes.find((n) => n.id === id);
    if (!node) throw new Error(`the Kafka cluster has no node ${id}`);
    return node;
  }

  #tail(node: ClusterNode): string {
    const file = path.join(this.#nodeDir(node), 'stdout.log');
    return existsSync(file) ? readFileSync(file, 'utf8').slice(-4000) : '';
  }

  /** Another process (the harness or a test) may have restarted a node since: read the pids again. */
  #reload(): void {
    const file = path.join(this.dir, 'cluster.json');
    if (existsSync(file)) this.#layout = JSON.parse(readFileSync(file, 'utf8')) as ClusterLayout;
  }

  #save(): void {
    writeFileSync(path.join(this.dir, 'cluster.json'), JSON.stringify(this.#layout, null, 2));
  }
}

function isRunning(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return cmdline.includes('kafka.Kafka') && !/\) Z /.test(stat);
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}
