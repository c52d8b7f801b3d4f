import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadUiSettings, UiSettingsError } from './ui-settings.ts';
import { startUiServer } from './ui-server.ts';

/**
 * The UI server on its own: `node packages/ui/server/main.ts [--config ui.json]` (else WEIR_UI_CONFIG,
 * else the repository's config/ui.json). `npm start` runs it next to the engine.
 */
const repoConfig = fileURLToPath(new URL('../../../config/ui.json', import.meta.url));
const dist = fileURLToPath(new URL('../dist', import.meta.url));

function configFile(argv: string[]): string | undefined {
  const i = argv.indexOf('--config');
  if (i >= 0) {
    const file = argv[i + 1];
    if (!file) throw new UiSettingsError('--config needs a file name');
    return file;
  }
  if (process.env.WEIR_UI_CONFIG) return process.env.WEIR_UI_CONFIG;
  return existsSync(repoConfig) ? repoConfig : undefined;
}

try {
  const file = configFile(process.argv.slice(2));
  const settings = loadUiSettings(file);
  const server = await startUiServer(settings, dist);
  console.log(
    `[weir-ui] settings from ${file ? path.resolve(file) : 'defaults'}; engine at ${settings['api.host']}:${settings['api.port']}`,
  );
  console.log(`[weir-ui] Weir Console on ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
} catch (err) {
  console.error(`[weir-ui] ${(err as Error).message}`);
  process.exit(err instanceof UiSettingsError ? 2 : 1);
}
