import { setOutputNames } from '@weir/pdl';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { LoginLimiter } from '../auth/login-limiter.ts';
import { TokenService } from '../auth/tokens.ts';
import { UserDirectory } from '../auth/user-directory.ts';
import { nodeUuid, type Settings } from '../config/settings.ts';
import { createApi } from './api.ts';
import type { NodeContext } from '../http/node-context.ts';
import { TopicClients, type TopicPorts } from '../kafka/topic-clients.ts';
import { LagSampler } from '../kafka/lag-sampler.ts';
import { loadKeyStore } from '../http/tls.ts';
import { ensureWeirTopics } from '../kafka/weir-topic-setup.ts';
import { NodeRegistry } from '../nodes/node-registry.ts';
import { openStore } from '../store/open-store.ts';
import { AuditingStore } from '../audit/auditing-store.ts';
import { AlertStore } from '../alerts/alert-store.ts';
import { EngineMetrics } from '../stream/engine-metrics.ts';
import { StreamEngine, type EngineLog } from '../stream/stream-engine.ts';
import { startMetricsServer } from '../http/metrics-server.ts';
import { Notifiers } from '../notify/notifiers.ts';
import { NotifyService } from '../notify/notify-service.ts';
import { silencedBy } from '../notify/silences.ts';
import { storedSilences } from '../silences/stored-silences.ts';

/**
 * What the routes of a node work with, on its open store and topic clients (the Kafka clients; the
 * route unit tests pass in-memory topics). Background messages go to `log`.
 */
export async function createNodeContext(
  settings: Settings,
  store: AuditingStore,
  topics: TopicPorts,
  log: EngineLog,
): Promise<NodeContext> {
  const uuid = nodeUuid(settings);
  const metrics = new EngineMetrics();
  const tokens = await TokenService.open(
    store,
    settings.get('weir.auth.access-token-seconds'),
    settings.get('weir.auth.refresh-token-seconds'),
  );
  const context: NodeContext = {
    settings,
    uuid,
    store,
    tokens,
    users: new UserDirectory(
      store,
      settings.get('weir.auth.password-min-length'),
      settings.get('weir.auth.password-refuse-common'),
    ),
    loginLimiter: new LoginLimiter(
      settings.get('weir.auth.login-max-failures'),
      settings.get('weir.auth.login-window-seconds'),
    ),
    topics,
    lagHistory: new LagSampler(
      () => topics.groups.lags(),
      {
        intervalMs: settings.get('weir.groups.lag.sample-seconds') * 1000,
        keepMs: settings.get('weir.groups.lag.keep-minutes') * 60_000,
        maxGroups: settings.get('weir.groups.lag.max-groups'),
      },
      (err) => log.warn(`consumer group lag sample failed: ${err.message}`),
    ),
    nodes: new NodeRegistry(
      store,
      uuid,
      settings.get('weir.node.heartbeat-seconds'),
      settings.get('weir.node.dead-after-seconds'),
      (err) => log.warn(err.message),
    ),
    metrics,
    lifecycle: { stopping: false },
    alerts: new AlertStore(settings, uuid, topics.producer, store, log),
    engine: new StreamEngine(settings, store, uuid, metrics, log),
  };
  context.nodes.attachEngine({
    state: () => context.engine.state(),
    stop: async () => void (await context.engine.stop()),
  });
  return context;
}

/**
 * One Weir node: its config store, auth and the management API. The embedded broker, when used,
 * is started before the node by `main.ts` (or by the test harness) and passed as bootstrap.servers.
 */
export class WeirNode {
  readonly context: NodeContext;
  readonly api: FastifyInstance;
  readonly #store: AuditingStore;
  /** The Prometheus endpoint, when enabled. */
  metrics: FastifyInstance | undefined;
  /** The notifications (docs/alerts.md), when `weir.notify.enabled`. */
  notify: NotifyService | undefined;

  private constructor(context: NodeContext, api: FastifyInstance) {
    this.context = context;
    this.api = api;
    this.#store = context.store;
  }

  static async start(settings: Settings): Promise<WeirNode> {
    const uuid = nodeUuid(settings);
    setOutputNames(settings.get('weir.output.names'));
    // Background messages (store, heartbeat, engine) go to stderr until the API's log exists.
    let log: EngineLog = {
      info: () => {},
      warn: (m) => void process.stderr.write(`${m}\n`),
      error: (m) => void process.stderr.write(`${m}\n`),
    };
    const warn = (err: Error) => log.warn(err.message);
    const store = new AuditingStore(await openStore(settings, uuid, (err) => warn(err)));
    try {
      const context = await createNodeContext(settings, store, new TopicClients(settings), {
        info: (m) => log.info(m),
        warn: (m) => log.warn(m),
        error: (m) => log.error(m),
      });
      const tls = settings.get('server.ssl.enabled') ? await loadKeyStore(settings) : undefined;
      const api = await createApi(context, tls);
      log = { info: (m) => api.log.info(m), warn: (m) => api.log.warn(m), error: (m) => api.log.error(m) };
      await api.listen({ host: settings.get('server.address'), port: settings.get('server.port') });
      const node = new WeirNode(context, api);
      try {
        if (settings.get('weir.config.store') === 'local') {
          // In kafka mode the store created the topics; in local mode only the alerts topic is needed.
          await ensureWeirTopics(settings, `weir-admin-${uuid}`, false).catch((err: Error) =>
            warn(new Error(`could not create the alerts topics: ${err.message}`)),
          );
        }
        context.alerts.start();
        await context.nodes.register({ host: os.hostname(), rest: node.restUrl, group: settings.get('weir.group') });
        context.lagHistory.start();
        if (settings.get('weir.metrics.enabled')) node.metrics = await startMetricsServer(settings, context.metrics);
        if (settings.get('weir.notify.enabled')) {
          const notifiers = new Notifiers(store);
          node.notify = new NotifyService({
            settings,
            notifiers: () => notifiers.stored(),
            // a silenced alert is not notified (docs/alerts.md, "Silences")
            isSilenced: silencedBy(storedSilences(store)),
            metrics: context.metrics,
            log: { info: (m) => log.info(m), warn: (m) => log.warn(m) },
            clientId: `weir-notify-${uuid}`,
          });
          node.notify.start();
        }
        if (settings.get('weir.engine.autostart')) await context.engine.start();
      } catch (err) {
        await node.notify?.stop();
        await context.lagHistory.stop();
        await context.engine.stop();
        await context.alerts.close();
        await node.metrics?.close();
        await api.close();
        throw err;
      }
      return node;
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

  /** The REST URL this node registers: the configured address, or the host name when it listens on all. */
  get restUrl(): string {
    const configured = this.context.settings.get('server.address');
    const host = ['0.0.0.0', '::', ''].includes(configured) ? os.hostname() : configured;
    return `${new URL(this.url).protocol}//${host.includes(':') ? `[${host}]` : host}:${new URL(this.url).port}`;
  }

  /**
   * Graceful shutdown (SIGTERM, SIGINT): readiness turns 503 at once so load balancers stop sending;
   * the stream workers finish the batch in flight, write its output and commit its offsets; then
   * the API finishes the requests in flight (new ones get 503) and the clients and the store close.
   */
  async stop(): Promise<void> {
    this.context.lifecycle.stopping = true;
    await this.notify?.stop();
    await this.context.engine.stop();
    await this.metrics?.close();
    this.context.nodes.stopHeartbeat();
    await this.api.close();
    await this.context.lagHistory.stop();
    await this.context.alerts.close();
    await this.context.topics.close();
    await this.#store.close();
  }
}
