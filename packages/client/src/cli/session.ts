import { WeirClient } from '../client.ts';
import { ExtraEndpoints } from '../extra-endpoints.ts';
import { readConfig, writeConfig, type CliConfig } from './config.ts';
import { UsageError } from './errors.ts';
import { makeFetch } from './transport.ts';
import type { ParsedCommand } from './args.ts';

export interface Session {
  readonly weir: WeirClient;
  readonly extra: ExtraEndpoints;
  readonly config: CliConfig;
  readonly server: string;
}

/** The server and TLS settings: flags first, then what login stored. */
export function connection(
  cmd: ParsedCommand,
  config: CliConfig,
): { server: string | undefined; insecure: boolean; ca: string | undefined } {
  const server = (cmd.values.server as string | undefined) ?? config.server;
  const insecure = cmd.values.insecure === true || (cmd.values.server === undefined && config.insecure === true);
  const ca = (cmd.values.ca as string | undefined) ?? (cmd.values.server === undefined ? config.ca : undefined);
  return { server: server?.replace(/\/$/, ''), insecure, ca };
}

/**
 * A client signed in with the stored tokens; each refreshed pair is written back to the config file
 * (mode 0600) so that the next command starts with it.
 */
export function openSession(cmd: ParsedCommand, env: NodeJS.ProcessEnv): Session {
  const config = readConfig(env);
  const { server, insecure, ca } = connection(cmd, config);
  if (!server) throw new UsageError('no server: run weirctl login --server https://host:8999 first, or give --server');
  if (!config.tokens || (cmd.values.server !== undefined && cmd.values.server !== config.server)) {
    throw new UsageError(`not logged in to ${server}: run weirctl login --server ${server}`);
  }
  const fetchFn = makeFetch({ insecure, ca });
  const weir = new WeirClient({
    baseUrl: server,
    fetch: fetchFn,
    tokens: config.tokens,
    onTokens: (tokens) => {
      const next = { ...readConfig(env) };
      if (tokens) next.tokens = tokens;
      else delete next.tokens;
      writeConfig(next, env);
    },
  });
  return { weir, extra: new ExtraEndpoints(weir, server, fetchFn), config, server };
}
