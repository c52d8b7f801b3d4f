import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { loadSettings, WeirNode, type SettingKey } from '@weir/engine';
import { request, type HttpResponse, type RequestOptions } from './https-client.ts';
import { adminInit, userBody } from './fixture-users.ts';

/** The broker that scripts/test.ts started for this run. */
export function testBootstrap(): string {
  const servers = process.env.WEIR_TEST_BOOTSTRAP;
  if (!servers) throw new Error('WEIR_TEST_BOOTSTRAP is not set: run integration tests through `npm test`');
  return servers;
}

export interface TestNode {
  readonly node: WeirNode;
  readonly url: string;
  readonly home: string;
  call(method: string, path: string, options?: RequestOptions): Promise<HttpResponse>;
  /** Inits the API with an admin (`admin`/`admin-pw`) and returns its access token. */
  initAdmin(): Promise<string>;
  login(username: string, password: string): Promise<{ access_token: string; refresh_token: string }>;
  /** Creates a user with the `user` role and returns its access token. */
  createUser(adminToken: string, username: string, roles?: string[]): Promise<string>;
  /** Stops the node and starts it again on the same home (and port). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real node on the shared test broker: HTTPS on a free port, its own home in a temporary folder.
 */
export async function startTestNode(
  overrides: Partial<Record<SettingKey, string>> = {},
  home?: string,
): Promise<TestNode> {
  const dir = home ?? mkdtempSync(path.join(os.tmpdir(), 'weir-test-home-'));
  const settings = loadSettings(undefined, {}).with({
    'weir.home': dir,
    'bootstrap.servers': testBootstrap(),
    'weir.broker.embedded': 'false',
    'server.port': '0',
    'server.address': '127.0.0.1',
    // WEIR_TEST_LOG_LEVEL=info (or debug) shows the in-process node's log while a test runs.
    'weir.log.level': process.env.WEIR_TEST_LOG_LEVEL ?? 'silent',
    'num.stream.threads': '1',
    'weir.metrics.port': '0',
    // The fixtures' passwords ('admin-pw', '<name>-pw') predate the password policy; tests of the
    // policy set weir.auth.password-min-length themselves.
    'weir.auth.password-min-length': '6',
    // Tests poll and sweep routes fast; limits.test.ts tests the per-user rate at its edge.
    'weir.http.rate-limit-per-minute': '1000000',
    // No notify consumer group per test node on the shared broker (group lists stay as the tests
    // expect them); the notifications' tests turn it on.
    'weir.notify.enabled': 'false',
    ...overrides,
  });
  let node = await WeirNode.start(settings);
  const port = new URL(node.url).port;
  const t: TestNode = {
    get node() {
      return node;
    },
    get url() {
      return node.url;
    },
    home: dir,
    call: (method, p, options) => request(node.url, method, p, options),
    async initAdmin() {
      const res = await t.call('POST', '/api/init', { body: adminInit });
      if (res.status !== 201) throw new Error(`init failed: ${res.status} ${res.text}`);
      return (await t.login('admin', 'admin-pw')).access_token;
    },
    async login(username, password) {
      const res = await t.call('POST', '/api/login', { body: { username, password } });
      if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${res.text}`);
      return res.body as { access_token: string; refresh_token: string };
    },
    async createUser(adminToken, username, roles = ['user']) {
      const res = await t.call('POST', '/api/users', { token: adminToken, body: userBody(username, roles) });
      if (res.status !== 201) throw new Error(`user create failed: ${res.status} ${res.text}`);
      return (await t.login(username, `${username}-pw`)).access_token;
    },
    async restart() {
      await node.stop();
      node = await WeirNode.start(settings.with({ 'server.port': port }));
    },
    async stop() {
      await node.stop();
      if (!home) rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/**
 * The node of a test file or `describe` block: started in `before` (then `setup` runs, e.g. to init
 * the admin and create topics), stopped in `after`. The returned TestNode stands for the started
 * node, so tests and `setup` use it directly.
 */
export function useTestNode(
  overrides: Partial<Record<SettingKey, string>> = {},
  setup?: () => Promise<void>,
): TestNode {
  let started: TestNode | undefined;
  const current = (): TestNode => {
    if (!started) throw new Error('useTestNode: the node is used before its before() hook ran');
    return started;
  };
  before(async () => {
    started = await startTestNode(overrides);
    await setup?.();
  });
  after(() => started?.stop());
  return {
    get node() {
      return current().node;
    },
    get url() {
      return current().url;
    },
    get home() {
      return current().home;
    },
    call: (method, p, options) => current().call(method, p, options),
    initAdmin: () => current().initAdmin(),
    login: (username, password) => current().login(username, password),
    createUser: (adminToken, username, roles) => current().createUser(adminToken, username, roles),
    restart: () => current().restart(),
    stop: () => current().stop(),
  };
}
