/**
 * `npm start`: the engine (packages/engine/src/main.ts, which starts the embedded broker when
 * needed) as a child process, then the web UI server in this process once the API answers. Both
 * URLs are printed. Ctrl-C / SIGTERM stops the UI, then the engine (which stops its broker).
 * Arguments go to the engine (`--config <file>`); the UI reads `--ui-config <file>`, else
 * WEIR_UI_CONFIG, else config/ui.json; its `api.port` follows the engine's actual port.
 * The UI is rebuilt first when its sources changed since the last build.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadUiSettings } from '../packages/ui/server/ui-settings.ts';
import { startUiServer, type UiServer } from '../packages/ui/server/ui-server.ts';
import { buildUi, uiBuildStale } from './ui-build.ts';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const uiIndex = args.indexOf('--ui-config');
const uiConfigArg = uiIndex >= 0 ? args.splice(uiIndex, 2)[1] : undefined;
const uiConfig =
  uiConfigArg ??
  process.env.WEIR_UI_CONFIG ??
  (existsSync(path.join(root, 'config/ui.json')) ? path.join(root, 'config/ui.json') : undefined);

let uiReady = true;
try {
  if (uiBuildStale()) buildUi();
} catch (err) {
  uiReady = false;
  console.error(`[weir-ui] ${(err as Error).message}\n[weir-ui] the UI will not start; the API still does.`);
}

const engine = spawn(
  process.execPath,
  ['--disable-warning=ExperimentalWarning', path.join(root, 'packages/engine/src/main.ts'), ...args],
  {
    cwd: root,
    stdio: ['inherit', 'pipe', 'inherit'],
  },
);
let ui: UiServer | undefined;
let stopping = false;

engine.stdout!.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  const m = /\[weir\] API on (https?):\/\/[^:]+:(\d+)/.exec(chunk.toString());
  if (m && uiReady && !ui && !stopping) void startUi(m[1] === 'https', Number(m[2]));
});

async function startUi(secure: boolean, port: number): Promise<void> {
  try {
    const settings = loadUiSettings(uiConfig, { 'api.port': port, 'api.ssl.enabled': secure });
    ui = await startUiServer(settings, path.join(root, 'packages/ui/dist'));
    console.log(`[weir-ui] settings from ${uiConfig ? path.resolve(uiConfig) : 'defaults'}`);
    console.log(`[weir-ui] Weir Console on ${ui.url}  (API on ${secure ? 'https' : 'http'}://localhost:${port})`);
  } catch (err) {
    console.error(`[weir-ui] the UI server could not start: ${(err as Error).message}`);
  }
}

engine.once('exit', (code, signal) => {
  void ui?.close().finally(() => process.exit(code ?? (signal ? 1 : 0)));
  if (!ui) process.exit(code ?? (signal ? 1 : 0));
});

const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  void (ui?.close() ?? Promise.resolve()).finally(() => {
    ui = undefined;
    engine.kill(signal);
  });
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGHUP', () => stop('SIGHUP'));
