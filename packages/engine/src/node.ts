import type { FastifyInstance } from 'fastify';
import { LoginLimiter } from './auth/login-limiter.ts';
import { TokenService } from './auth/tokens.ts';
import { UserDirectory } from './auth/user-directory.ts';
import { nodeUuid, type Settings } from './config/settings.ts';
import { createApi } from './http/app.ts';
import type { NodeContext } from './http/context.ts';
import { loadKeyStore } from './http/tls.ts';
import type { ConfigStore } from './store/config-store.ts';
import { SqliteConfigStore } from './store/sqlite-store.ts';

/**
 * One Weir node: its config store, auth and the management API. The embedded broker, when used,
 * is started before the node by `main.ts` (or by the test harness) and passed as bootstrap.servers.
 */
export class WeirNode {
  readonly context: NodeContext;
  readonly api: FastifyInstance;
  readonly #store: ConfigStore;

  private constructor(context: NodeContext, api: FastifyInstance) {
    this.context = context;
    this.api = api;
    this.#store = context.store;
  }

  static async start(settings: Settings): Promise<WeirNode> {
    const store = openStore(settings);
    try {
      const tokens = await TokenService.open(store, settings.get('weir.auth.access-token-seconds'), settings.get('weir.auth.refresh-token-seconds'));
      const context: NodeContext = {
        settings,
        uuid: nodeUuid(settings),
        store,
        tokens,
        users: new UserDirectory(store),
        loginLimiter: new LoginLimiter(settings.get('weir.auth.login-max-failures'), settings.get('weir.auth.login-window-seconds')),
      };
      const tls = settings.get('server.ssl.enabled') ? await loadKeyStore(settings) : undefined;
      const api = await createApi(context, tls);
      await api.listen({ host: settings.get('server.address'), port: settings.get('server.port') });
      return new WeirNode(context, api);
    } catch (err) {
      await store.close();
      throw err;
    }
  }

  /** The API's base URL as seen from this machine. */
  get url(): string {
    const address = this.api.server.address();
    const port = typeof address === 'object' && address ? address.port : this.context.settings.get('server.port');
    const scheme = this.context.settings.get('server.ssl.enabled') ? 'https' : 'http';
    return `${scheme}://localhost:${port}`;
  }

  async stop(): Promise<void> {
    await this.api.close();
    await this.#store.close();
  }
}

function openStore(settings: Settings): ConfigStore {
  const kind = settings.get('weir.config.store');
  if (kind === 'local') return new SqliteConfigStore(settings.get('weir.config.location'));
  throw new Error(`weir.config.store=${kind} is not available in this build yet`);
}
