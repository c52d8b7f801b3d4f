/**
 * The API fuzz run (issue 13, `npm run test:fuzz`): a real node in its own process (HTTPS) on the
 * run's Kafka broker; every route of GET /api/openapi.json gets WEIR_FUZZ_PER_ROUTE (2,000) inputs
 * made from its schema and mutated (route-inputs.ts). Fails on any 5xx, any hang (no answer in
 * 15 s), any 4xx that is not the spec's error answer, any change of the stored state by rejected
 * requests, a route with no inputs, or the node process going down. Prints a table per route.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { initAdmin, NodeProcess } from '../helpers/node-process.ts';
import { errorShapeProblem, send, type FuzzResponse } from './fuzz-client.ts';
import { fuzzSeed, Rng } from './rng.ts';
import {
  routeInput,
  routeName,
  routesOf,
  type KnownIds,
  type Route,
  type RouteInput,
  type TokenKind,
} from './route-inputs.ts';
import { newStats, statsTable, type RouteStats } from './route-report.ts';
import { differences, snapshot, type Snapshot } from './state-snapshot.ts';

const seed = fuzzSeed();
const perRoute = Number(process.env.WEIR_FUZZ_PER_ROUTE ?? 2000);
/** WEIR_FUZZ_ROUTES: only the routes whose `METHOD /template` holds one of these comma-separated texts (all when unset). */
const routeFilter = (process.env.WEIR_FUZZ_ROUTES ?? '')
  .split(',')
  .map((r) => r.trim())
  .filter(Boolean);
const chunkSize = 64;
const dumpDir = process.env.WEIR_FUZZ_DUMP;
console.log(
  `# API fuzz: seed ${seed} (replay: WEIR_FUZZ_SEED=${seed} npm run test:fuzz), ${perRoute} inputs per route`,
);

const node = new NodeProcess();
/** Topic names of this run (the broker may have served an earlier run). */
const topicIn = `fuzz-${randomBytes(4).toString('hex')}-in`;
const topicOut = topicIn.replace(/-in$/, '-out');
let tokens: Record<TokenKind, string | undefined>;
/** A second admin session, for POST /api/logout (which ends the session it is called with). */
let logoutTokens: { access: string; refresh: string };

async function call(method: string, path: string, token: string | undefined, body?: unknown): Promise<FuzzResponse> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  return send(
    node.url,
    { method, path, headers, body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)), label: 'setup' },
    true,
  );
}

async function setupCall(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await call(method, path, tokens.admin, body);
  if (res.status >= 300) throw new Error(`setup: ${method} ${path} answered ${res.status} ${res.text}`);
  return res.text ? JSON.parse(res.text) : undefined;
}

async function login(username: string, password: string): Promise<{ access_token: string; refresh_token: string }> {
  const res = await call('POST', '/api/login', undefined, { username, password });
  if (res.status !== 200) throw new Error(`login of ${username}: ${res.status}`);
  return JSON.parse(res.text) as { access_token: string; refresh_token: string };
}

before(
  async () => {
    // The harness's tokens must outlive the run (2,000 inputs per route take about 40 minutes; access
    // tokens last 15 by default): expiry is tested in the auth suites, not here.
    await node.configure({
      'weir.engine.autostart': 'false',
      'weir.log.level': 'error',
      'weir.auth.access-token-seconds': String(24 * 3600),
    });
    await node.start();
    const admin = await initAdmin(node);
    tokens = {
      admin,
      user: undefined,
      refresh: undefined,
      garbage: 'not-a-token',
      none: undefined,
      // a token signed with alg none, claiming the admin role
      forged: `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"admin","roles":["admin"],"exp":9999999999}').toString('base64url')}.`,
    };
    tokens.refresh = (await login('admin', 'admin-pw')).refresh_token;
    const second = await login('admin', 'admin-pw');
    logoutTokens = { access: second.access_token, refresh: second.refresh_token };
    for (const [username, roles] of [
      ['fuzz-user', ['user']],
      ['fuzz-victim', ['user']],
      ['fuzz-victim2', ['admin']],
    ] as const) {
      await setupCall('POST', '/api/users', {
        username,
        password: `${username}-pw`,
        name: username,
        email: `${username}@example.com`,
        roles: roles.map((name) => ({ name })),
      });
    }
    tokens.user = (await login('fuzz-user', 'fuzz-user-pw')).access_token;
    // one stored record of every kind, so that requests with a known id reach the handlers' later checks
    await setupCall('POST', '/api/topics', { name: topicIn, numberOfPartitions: 1, replicationFactor: 1 });
    await setupCall('POST', '/api/topics', { name: topicOut, numberOfPartitions: 1, replicationFactor: 1 });
    await setupCall('POST', '/api/tasks', {
      id: 1,
      name: 'fuzz-task',
      function: 'FILTER',
      definition: { type: 'pdl', value: 'user = "bob"' },
    });
    await setupCall('POST', '/api/tasks', { id: 2, name: 'fuzz-kv', function: 'PARSE_KV', definition: {} });
    await setupCall('POST', '/api/pipelines', { id: 1, name: 'fuzz-pipeline', description: '', tasks: [1, 2] });
    await setupCall('POST', '/api/topologies', {
      id: 1,
      name: 'fuzz-topology',
      description: '',
      pipelines: [1],
      enabled: false,
      group: 'default',
      input: { name: topicIn },
      output: [{ name: topicOut }],
    });
    await setupCall('POST', '/api/rules', {
      id: 'fuzz-rule',
      name: 'fuzz-rule',
      description: '',
      pdl: 'user = "bob"',
      enabled: true,
    });
  },
  { timeout: 180_000 },
);

after(async () => {
  const child = node.child;
  // A node that went down fails the test through the next request (ECONNREFUSED): say why it went down.
  if (child && (child.exitCode !== null || child.signalCode !== null)) {
    console.log(
      `# the node process exited during the run (code ${child.exitCode}, signal ${child.signalCode}); its last output:\n${node.output
        .slice(-6000)
        .split('\n')
        .map((l) => `#   ${l}`)
        .join('\n')}`,
    );
  }
  await node.stop();
});

const ids = (text: string, key: string) => (JSON.parse(text) as Record<string, unknown>[]).map((r) => String(r[key]));

/** Ids the inputs may use in paths: what is stored now, without the admin and the fuzz user (their tokens must live). */
function knownIds(state: Snapshot, nodeIds: string[]): KnownIds {
  const topics = (JSON.parse(state.get('/api/topics/list')!) as unknown[]).map((t) =>
    typeof t === 'string' ? t : String((t as { name: unknown }).name),
  );
  return {
    users: ids(state.get('/api/users')!, 'username').filter((u) => u !== 'admin' && u !== 'fuzz-user'),
    tasks: ids(state.get('/api/tasks')!, 'id'),
    pipelines: ids(state.get('/api/pipelines')!, 'id'),
    topologies: ids(state.get('/api/topologies')!, 'id'),
    rules: ids(state.get('/api/rules')!, 'id'),
    lookups: ids(state.get('/api/lookups')!, 'id'),
    // Weir's own topics (weir_*) stay out of paths: deleting them is an admin's right, and would end the run.
    topics: topics.filter((t) => t.startsWith('fuzz')),
    nodes: nodeIds,
  };
}

/** Routes that store nothing, so that even their 2xx answers must leave the state as it was. */
const storesNothing = (r: Route) =>
  r.method === 'GET' ||
  r.template.startsWith('/api/test/') ||
  r.template.endsWith('/consume') ||
  r.template === '/api/login' ||
  r.template === '/api/logout';

/** Order: routes that add and change first, deletes after them, the engine's start and stop last. */
function order(r: Route): number {
  if (r.template.startsWith('/api/engine/')) return r.template.endsWith('start') ? 3 : 4;
  return r.method === 'DELETE' ? 2 : 1;
}

interface Failure {
  readonly route: string;
  readonly input: string;
  readonly problem: string;
}

function describeInput(input: RouteInput): string {
  const body =
    input.body === undefined
      ? ''
      : ` body(${input.body.length} B, ${input.headers['content-type'] ?? 'no content type'}): ${JSON.stringify(input.body.subarray(0, 200).toString('utf8'))}`;
  return `[${input.label}, token ${input.token}] ${input.method} ${input.path.slice(0, 200)}${body}`;
}

test(
  'every route of the OpenAPI document: no 5xx, no hang, error objects, rejected requests change nothing',
  // ~25 ms of wall time per input on a quiet 2-core machine: the default 2,000 per route (~138,000
  // requests) takes about an hour, more than a fixed one-hour limit allows on a busy machine
  { timeout: Math.max(3_600_000, perRoute * 69 * 100) },
  async () => {
    const doc = JSON.parse((await call('GET', '/api/openapi.json', undefined)).text) as Parameters<typeof routesOf>[0];
    const all = routesOf(doc);
    assert.ok(all.length >= 60, `the OpenAPI document lists ${all.length} operations`);
    const routes = all
      .filter((r) => routeFilter.length === 0 || routeFilter.some((f) => routeName(r).includes(f)))
      .sort((a, b) => order(a) - order(b));
    assert.ok(routes.length > 0, `no route matches WEIR_FUZZ_ROUTES=${routeFilter.join(',')}`);
    if (routeFilter.length > 0) console.log(`# API fuzz: ${routes.length} of ${all.length} routes (WEIR_FUZZ_ROUTES)`);
    const nodeIds = ids((await call('GET', '/api/nodes', tokens.admin)).text, 'id');
    const rng = new Rng(seed);
    const stats: RouteStats[] = [];
    const failures: Failure[] = [];
    const started = Date.now();
    let state = await snapshot(node.url, tokens.admin!);

    for (const route of routes) {
      const name = routeName(route);
      const s = newStats(name);
      stats.push(s);
      const routeRng = rng.fork(name);
      const known = knownIds(state, nodeIds);
      const tokenFor = (kind: TokenKind) =>
        route.template === '/api/logout' && kind === 'admin'
          ? logoutTokens.access
          : route.template === '/api/logout' && kind === 'refresh'
            ? logoutTokens.refresh
            : tokens[kind];
      const fail = (input: RouteInput, problem: string) => {
        if (failures.length < 200) failures.push({ route: name, input: describeInput(input), problem });
        // WEIR_FUZZ_DUMP=<dir>: each failing input's request, whole, in a file of its own (to replay it by hand).
        if (dumpDir) {
          mkdirSync(dumpDir, { recursive: true });
          const file = path.join(dumpDir, `failure-${failures.length}.json`);
          const request = { method: input.method, path: input.path, headers: input.headers, problem };
          writeFileSync(file, JSON.stringify(request, null, 2));
          if (input.body) writeFileSync(`${file}.body`, input.body);
        }
      };

      /** Sends the inputs at once; returns the rejected ones and whether any was accepted. Checks status, error shape and hangs. */
      const sendAll = async (inputs: RouteInput[]): Promise<{ rejected: RouteInput[]; accepted: boolean }> => {
        const rejected: RouteInput[] = [];
        let accepted = false;
        await Promise.all(
          inputs.map(async (input) => {
            const token = tokenFor(input.token);
            const headers = { ...input.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) };
            s.inputs++;
            let res: FuzzResponse;
            try {
              res = await send(node.url, { ...input, headers });
            } catch (err) {
              const message = (err as Error).message;
              // A body over the 16 MiB limit is answered 413 and the connection closed while the client still writes: refused, not a defect.
              if ((input.body?.length ?? 0) > 16 * 1024 * 1024 && /EPIPE|ECONNRESET/.test(message)) {
                s.s4xx++;
                rejected.push(input);
                return;
              }
              if (/a hang/.test(message)) s.hangs++;
              else s.other++;
              fail(input, `no answer: ${message}`);
              return;
            }
            s.slowestMs = Math.max(s.slowestMs, res.ms);
            if (res.status >= 200 && res.status < 300) {
              s.s2xx++;
              accepted = true;
            } else if (res.status >= 400 && res.status < 500) {
              s.s4xx++;
              rejected.push(input);
              const problem = errorShapeProblem(input.path, res);
              if (problem) fail(input, `${res.status} with ${problem}: ${res.text.slice(0, 300)}`);
            } else if (res.status >= 500) {
              s.s5xx++;
              fail(input, `${res.status}: ${res.text.slice(0, 300)}`);
            } else {
              s.other++;
              fail(input, `status ${res.status}`);
            }
          }),
        );
        return { rejected, accepted };
      };

      /** Compares the state with the last one; a difference after requests that could not change it is a failure. */
      const compare = async (inputs: RouteInput[], checked: number, mayChange: boolean) => {
        const now = await snapshot(node.url, tokens.admin!);
        const diff = differences(state, now);
        if (!mayChange && diff.length > 0) {
          failures.push({
            route: name,
            input: inputs.map(describeInput).join('\n      '),
            problem: `rejected requests changed the stored state: ${diff.join('; ')}`,
          });
        } else if (!mayChange) s.stateChecked += checked;
        state = now;
      };

      let pending: RouteInput[] = [];
      const flush = async () => {
        if (pending.length === 0) return;
        const inputs = pending;
        pending = [];
        const { rejected, accepted } = await sendAll(inputs);
        if (!accepted || storesNothing(route)) {
          await compare(inputs, rejected.length, false);
          return;
        }
        // Some were accepted (a change is expected): the rejected ones are sent again one at a time, each checked.
        await compare(inputs, 0, true);
        for (const input of rejected) {
          const again = await sendAll([input]);
          await compare([input], again.rejected.length, again.accepted);
        }
      };
      for (let i = 0; i < perRoute; i++) {
        const input = routeInput(routeRng, route, known);
        if (input.label === 'schema' && !storesNothing(route)) {
          await flush();
          pending = [input];
          await flush();
        } else {
          pending.push(input);
          if (pending.length >= chunkSize) await flush();
        }
        if (node.child?.exitCode !== null) break;
      }
      await flush();
      assert.equal(node.child?.exitCode, null, `the node process exited during ${name}:\n${node.output}`);
      console.log(
        `# ${name}: ${s.inputs} inputs, ${s.s2xx} 2xx, ${s.s4xx} 4xx, ${s.s5xx} 5xx, ${s.hangs} hangs (${Math.round((Date.now() - started) / 1000)} s)`,
      );
    }

    console.log(
      `# API fuzz, seed ${seed}, ${Math.round((Date.now() - started) / 1000)} s\n${statsTable(stats)
        .split('\n')
        .map((l) => `# ${l}`)
        .join('\n')}`,
    );
    const live = await call('GET', '/health/live', undefined);
    assert.equal(live.status, 200, 'the node answers /health/live after the run');
    assert.equal(
      (await call('GET', '/api/rules', tokens.admin)).status,
      200,
      "the admin's session still works after the run",
    );
    for (const f of failures.slice(0, 50)) console.log(`# FAIL ${f.route}: ${f.problem}\n#   ${f.input}`);
    assert.deepEqual(
      stats.filter((x) => x.inputs < perRoute).map((x) => x.route),
      [],
      'routes with fewer inputs than asked',
    );
    assert.equal(
      failures.length,
      0,
      `${failures.length} failures (first: ${failures[0]?.route}: ${failures[0]?.problem}); seed ${seed}`,
    );
  },
);
