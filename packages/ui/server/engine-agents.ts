import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { UiSettings } from './ui-settings.ts';

const loopback = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * Connections to engine nodes, one keep-alive agent per scheme and host. One trust rule for the
 * configured engine and for the other nodes of its cluster: a certificate signed by `api.ssl.ca`
 * (or one the system trusts); without `api.ssl.ca`, a self-signed certificate only on a loopback host.
 */
export class EngineAgents {
  readonly #ca: Buffer | undefined;
  readonly #agents = new Map<string, http.Agent>();

  constructor(settings: UiSettings) {
    this.#ca = settings['api.ssl.ca'] ? readFileSync(settings['api.ssl.ca']) : undefined;
  }

  /** The agent and module for `https` or `http` to `host`. */
  for(secure: boolean, host: string): { agent: http.Agent; lib: typeof http | typeof https } {
    const key = `${secure ? 'https' : 'http'}://${host}`;
    let agent = this.#agents.get(key);
    if (!agent) {
      agent = secure
        ? new https.Agent({
            keepAlive: true,
            ca: this.#ca,
            rejectUnauthorized: this.#ca !== undefined || !loopback.has(host),
          })
        : new http.Agent({ keepAlive: true });
      this.#agents.set(key, agent);
    }
    return { agent, lib: secure ? https : http };
  }
}
