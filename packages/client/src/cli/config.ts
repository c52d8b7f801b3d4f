import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Tokens } from '../types.ts';

/** What `weirctl login` keeps: the server, how to trust it, and the token pair. */
export interface CliConfig {
  server?: string;
  insecure?: boolean;
  /** Absolute path of a CA certificate file (PEM) to trust for the server. */
  ca?: string;
  username?: string;
  tokens?: Tokens;
}

/** `$XDG_CONFIG_HOME/weir`, else `~/.config/weir`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(os.homedir(), '.config');
  return path.join(base, 'weir');
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), 'config.json');
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): CliConfig {
  const file = configFile(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    return JSON.parse(text) as CliConfig;
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}): fix it or run weirctl login again`, {
      cause: err,
    });
  }
}

/** Written to a temporary file with mode 0600 and renamed over the old one: never readable by others, never half-written. */
export function writeConfig(config: CliConfig, env: NodeJS.ProcessEnv = process.env): void {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = configFile(env);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
