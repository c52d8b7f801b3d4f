import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddedBroker } from './broker/embedded-broker.ts';
import { isReachable, localBootstrapPort } from './broker/ports.ts';
import { loadSettings, SettingsError, type Settings } from './config/settings.ts';
import { WeirNode } from './node/node.ts';

/**
 * `npm start`: loads the settings (`--config <file>`, else WEIR_CONFIG, else the repository's
 * config/weir.properties), starts the embedded Kafka broker when needed, then the node.
 * SIGINT/SIGTERM stop everything cleanly.
 */
const repoConfig = fileURLToPath(new URL('../../../config/weir.properties', import.meta.url));

function configFile(argv: string[]): string | undefined {
  const i = argv.indexOf('--config');
  if (i >= 0) {
    const file = argv[i + 1];
    if (!file) throw new SettingsError('--config needs a file name');
    return file;
  }
  if (process.env.WEIR_CONFIG) return process.env.WEIR_CONFIG;
  return existsSync(repoConfig) ? repoConfig : undefined;
}

async function startBroker(settings: Settings): Promise<{ broker?: EmbeddedBroker; settings: Settings }> {
  const mode = settings.get('weir.broker.embedded');
  if (mode === 'false') return { settings };
  if (mode === 'auto' && (await isReachable(settings.get('bootstrap.servers')))) return { settings };
  const broker = new EmbeddedBroker({
    dir: settings.get('weir.broker.dir'),
    brokerPort: settings.get('weir.broker.port') || undefined,
    preferredPort: localBootstrapPort(settings.get('bootstrap.servers')),
    log: (line) => console.log(`[weir] ${line}`),
  });
  const bootstrap = await broker.start();
  console.log(`[weir] Kafka (embedded broker) at ${bootstrap}`);
  return { broker, settings: settings.with({ 'bootstrap.servers': bootstrap }) };
}

async function main(): Promise<void> {
  let settings: Settings;
  try {
    const file = configFile(process.argv.slice(2));
    settings = loadSettings(file);
    console.log(`[weir] settings from ${file ? path.resolve(file) : 'defaults'}; home ${settings.get('weir.home')}`);
    for (const warning of settings.warnings) console.log(`[weir] warning: ${warning}`);
  } catch (err) {
    console.error(`[weir] ${(err as Error).message}`);
    process.exit(2);
  }
  const started = await startBroker(settings);
  const broker = started.broker;
  let node: WeirNode | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[weir] ${signal}: stopping (finishing the batch and the requests in flight)`);
    const limit = started.settings.get('weir.shutdown.timeout-seconds');
    setTimeout(() => {
      console.error(`[weir] did not stop within ${limit} s (weir.shutdown.timeout-seconds); exiting`);
      process.exit(1);
    }, limit * 1000).unref();
    await node?.stop().catch((err: Error) => console.error(`[weir] stopping the node: ${err.message}`));
    await broker?.stop();
    console.log('[weir] stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGHUP', () => void stop('SIGHUP'));
  // When the parent (npm, a shell) dies without passing a signal on, stop rather than linger.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop('parent process exited');
  }, 2000).unref();
  // Never leave the broker behind, even when this process dies of an error.
  process.on('exit', () => {
    if (broker?.pid) {
      try {
        process.kill(broker.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
  try {
    node = await WeirNode.start(started.settings);
  } catch (err) {
    console.error(`[weir] the node could not start: ${(err as Error).message}`);
    await broker?.stop();
    process.exit(1);
  }
  console.log(
    `[weir] API on ${node.url} (Kafka ${started.settings.get('bootstrap.servers')}${broker ? ', embedded' : ''}); node ${node.context.uuid}`,
  );
}

await main();
