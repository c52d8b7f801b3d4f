import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { setOutputNames } from '@weir/pdl';
import type { FastifyInstance } from 'fastify';
import { createApi } from '../../src/node/api.ts';
import { AuditingStore } from '../../src/audit/auditing-store.ts';
import { loadSettings, nodeUuid, type SettingKey } from '../../src/config/settings.ts';
import { createNodeContext } from '../../src/node/node.ts';
import type { NodeContext } from '../../src/http/node-context.ts';
import { openStore } from '../../src/store/open-store.ts';
import { InMemoryTopics } from './in-memory-topics.ts';
import { adminInit, userBody } from '@weir/test-helpers/fixture-users';

export interface InjectOptions {
  readonly token?: string;
  /** JSON-encoded unless a string or Buffer with `contentType`. */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
}

export interface InjectResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | number | undefined>;
  readonly text: string;
  /** The body parsed as JSON (undefined when empty or not JSON). */
  readonly body: unknown;
}

/** The REST URL the in-process node registers (it listens nowhere: requests are injected). */
export const inProcessRest = 'http://in-process:8080';

export interface InProcessNode {
  readonly app: FastifyInstance;
  readonly context: NodeContext;
  readonly topics: InMemoryTopics;
  readonly home: string;
  /** One request through Fastify's inject() (no socket). */
  call(method: string, url: string, options?: InjectOptions): Promise<InjectResponse>;
  /** Inits the API with an admin (`admin`/`admin-pw`) and returns its access token. */
  initAdmin(): Promise<string>;
  login(username: string, password: string): Promise<{ access_token: string; refresh_token: string }>;
  /** Creates a user (role `user` unless told) and returns its access token. */
  createUser(adminToken: string, username: string, roles?: string[]): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A node's management API in process, for the route unit tests: the real Fastify app (api.ts) and
 * node context on the SQLite config store in a temporary home, with in-memory topics in place of
 * the Kafka clients (helpers/in-memory-topics.ts) and a stream engine that is never started unless
 * a test asks (its workers would need a broker). No broker, no socket: requests go through inject().
 */
export async function startInProcessNode(overrides: Partial<Record<SettingKey, string>> = {}): Promise<InProcessNode> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'weir-unit-home-'));
  const settings = loadSettings(undefined, {}).with({
    'weir.home': home,
    'weir.config.store': 'local',
    'bootstrap.servers': '127.0.0.1:1',
    'weir.broker.embedded': 'false',
    'weir.log.level': process.env.WEIR_TEST_LOG_LEVEL ?? 'silent',
    'num.stream.threads': '1',
    'weir.engine.autostart': 'false',
    'weir.metrics.enabled': 'false',
    // As in @weir/test-helpers/test-node: the fixtures' passwords predate the policy; no rate limit in the way.
    'weir.auth.password-min-length': '6',
    'weir.http.rate-limit-per-minute': '1000000',
    ...overrides,
  });
  setOutputNames(settings.get('weir.output.names'));
  const store = new AuditingStore(await openStore(settings, nodeUuid(settings), () => {}));
  const topics = new InMemoryTopics();
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  const context = await createNodeContext(settings, store, topics, log);
  const app = await createApi(context, undefined);
  await context.nodes.register({ host: 'in-process', rest: inProcessRest, group: settings.get('weir.group') });

  const call = async (method: string, url: string, options: InjectOptions = {}): Promise<InjectResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    let payload: string | Buffer | undefined;
    if (options.body !== undefined) {
      if (options.contentType && (typeof options.body === 'string' || Buffer.isBuffer(options.body)))
        payload = options.body;
      else payload = JSON.stringify(options.body);
      headers['content-type'] ??= options.contentType ?? 'application/json;charset=UTF-8';
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const res = await app.inject({ method: method as 'GET', url, headers, payload });
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text: res.body, body };
  };
  const node: InProcessNode = {
    app,
    context,
    topics,
    home,
    call,
    async initAdmin() {
      const res = await call('POST', '/api/init', { body: adminInit });
      if (res.status !== 201) throw new Error(`init failed: ${res.status} ${res.text}`);
      return (await node.login('admin', 'admin-pw')).access_token;
    },
    async login(username, password) {
      const res = await call('POST', '/api/login', { body: { username, password } });
      if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${res.text}`);
      return res.body as { access_token: string; refresh_token: string };
    },
    async createUser(adminToken, username, roles = ['user']) {
      const res = await call('POST', '/api/users', { token: adminToken, body: userBody(username, roles) });
      if (res.status !== 201) throw new Error(`user create failed: ${res.status} ${res.text}`);
      return (await node.login(username, `${username}-pw`)).access_token;
    },
    async stop() {
      context.lifecycle.stopping = true;
      await context.engine.stop();
      context.nodes.stopHeartbeat();
      await context.lagHistory.stop();
      await app.close();
      await context.alerts.close();
      await topics.close();
      await store.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
  return node;
}

/** Tokens of the usual callers: an admin and a user of role `user`. */
export interface Callers {
  readonly admin: string;
  readonly user: string;
}

/**
 * The in-process node of a test file: started in `before` with an admin and a user `alice` (role
 * `user`), then `setup` runs (e.g. to store resources); stopped in `after`. Use the returned getters
 * inside tests and `setup` only.
 */
export function useInProcessNode(
  overrides: Partial<Record<SettingKey, string>> = {},
  setup?: () => Promise<void>,
): {
  readonly node: InProcessNode;
  readonly tokens: Callers;
} {
  let node: InProcessNode | undefined;
  let tokens: Callers | undefined;
  before(async () => {
    node = await startInProcessNode(overrides);
    const admin = await node.initAdmin();
    tokens = { admin, user: await node.createUser(admin, 'alice') };
    await setup?.();
  });
  after(() => node?.stop());
  return {
    get node() {
      if (!node) throw new Error('useInProcessNode: used before its before() hook ran');
      return node;
    },
    get tokens() {
      if (!tokens) throw new Error('useInProcessNode: used before its before() hook ran');
      return tokens;
    },
  };
}

/**
 * The access refusals of a route (spec: Security): no token → 401 and an invalid token → 403, both
 * with no body; with `adminOnly`, a `user` token → 403 with no body too.
 */
export async function assertRefusals(
  node: InProcessNode,
  userToken: string,
  method: string,
  url: string,
  options: { adminOnly: boolean; body?: unknown },
): Promise<void> {
  const label = `${method} ${url}`;
  const anonymous = await node.call(method, url, { body: options.body });
  if (anonymous.status !== 401 || anonymous.text !== '')
    throw new Error(`${label} without a token: ${anonymous.status} ${anonymous.text} (expected 401, no body)`);
  const invalid = await node.call(method, url, { body: options.body, token: 'not-a-token' });
  if (invalid.status !== 403 || invalid.text !== '')
    throw new Error(`${label} with an invalid token: ${invalid.status} ${invalid.text} (expected 403, no body)`);
  if (!options.adminOnly) return;
  const asUser = await node.call(method, url, { body: options.body, token: userToken });
  if (asUser.status !== 403 || asUser.text !== '')
    throw new Error(`${label} as a user: ${asUser.status} ${asUser.text} (expected 403, no body)`);
}
