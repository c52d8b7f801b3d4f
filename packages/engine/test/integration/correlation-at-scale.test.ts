import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { isolatedEngine, post, waitFor, waitForRunning } from '@weir/test-helpers/engine';
import { createTopics, produce } from '@weir/test-helpers/kafka';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { startTestNode, testBootstrap, type TestNode } from '@weir/test-helpers/test-node';

const run = promisify(execFile);

/** Every value of a topic, read by kcat (librdkafka), a client independent of Weir's. */
async function kcat(topic: string): Promise<string[]> {
  const { stdout } = await run(
    'kcat',
    ['-C', '-b', testBootstrap(), '-t', topic, '-o', 'beginning', '-e', '-q', '-f', '%s\n'],
    { maxBuffer: 256 * 1024 * 1024, timeout: 60_000 },
  );
  return stdout.split('\n').filter((l) => l.length > 0);
}

const RULE = 'action="login" | event_count timespan=10m group_by user reset=false where _aggregation.value >= 20';
const MIN = 60_000;

/** `users` users × 40 logins each, interleaved, all within 200 s of event time from `t0`; half 0 or 1 of them. */
function logins(prefix: string, users: number, t0: number, half: 0 | 1): string[] {
  const out: string[] = [];
  const spacing = 5000 / users;
  for (let i = half * 20; i < half * 20 + 20; i++) {
    for (let u = 0; u < users; u++)
      out.push(
        JSON.stringify({ action: 'login', user: `${prefix}${u}`, _time: Math.round(t0 + (i * users + u) * spacing) }),
      );
    // noise the rule's query drops before its correlation stage
    out.push(JSON.stringify({ action: 'logout', user: `${prefix}0`, _time: t0 + i * users * 100 }));
  }
  return out;
}

/** user → its alerts' aggregation values, sorted. */
function alertValues(values: readonly string[], prefix: string): Map<string, number[]> {
  const by = new Map<string, number[]>();
  for (const v of values) {
    const alert = JSON.parse(v) as { user?: string; _aggregation?: { value?: number } };
    if (!alert.user?.startsWith(prefix)) continue;
    const list = by.get(alert.user) ?? [];
    list.push(alert._aggregation?.value ?? -1);
    by.set(alert.user, list);
  }
  for (const list of by.values()) list.sort((a, b) => a - b);
  return by;
}

/** The single-worker reference: every user's alerts carry the counts 20..40, once each. */
function assertReference(by: Map<string, number[]>, prefix: string, users: number): void {
  const expected = Array.from({ length: 21 }, (_, i) => 20 + i);
  assert.equal(by.size, users, `users with alerts (${prefix})`);
  for (let u = 0; u < users; u++) assert.deepEqual(by.get(`${prefix}${u}`), expected, `alerts of ${prefix}${u}`);
}

describe('correlations at scale: repartitioned by group, stream time, durable state (4 partitions, null keys, 2 threads)', () => {
  let a: TestNode;
  let token: string;
  const settings = {
    ...isolatedEngine('corr'),
    'num.stream.threads': '2',
    'weir.config.store': 'kafka',
    ...(process.env.CORR_DEBUG ? { 'weir.log.level': 'info' } : {}),
  };
  const input = uniqueTopic('corr-in');
  const output = uniqueTopic('corr-out');

  before(async () => {
    a = await startTestNode(settings);
    token = await a.initAdmin();
    await createTopics([input, output], 4);
    await post(a, token, '/api/rules', {
      id: 'burst',
      name: 'Login burst',
      description: '',
      pdl: RULE,
      annotations: [],
      enabled: true,
    });
    await post(a, token, '/api/tasks', {
      id: 1,
      name: 'rules',
      description: '',
      function: 'APPLY_RULES',
      definition: { rules: ['burst'] },
    });
    await post(a, token, '/api/pipelines', { id: 1, name: 'detect', description: '', tasks: [1] });
    await post(a, token, '/api/topologies', {
      id: 1,
      name: 'logins',
      description: '',
      pipelines: [1],
      enabled: true,
      group: 'default',
      input: { name: input },
      output: [{ name: output }],
    });
    await waitForRunning(a, token);
  });
  after(() => a.stop());

  test('events of 2023, then events of now: per user the alerts equal the single-worker reference (21 each, 1,050 per set)', async () => {
    // stream time only moves forward: the replay of 2023 first, then the live events (the other way
    // round, the 2023 events would be a year late for partitions that saw the live ones)
    for (const [prefix, t0] of [
      ['past-', Date.UTC(2023, 2, 14, 9, 0, 0)],
      ['now-', Date.now() - 5 * MIN],
    ] as const) {
      await produce(input, logins(prefix, 50, t0, 0));
      await new Promise((r) => setTimeout(r, 3000));
      await produce(input, logins(prefix, 50, t0, 1));
      await waitFor(
        `1,050 alerts of ${prefix}`,
        async () => {
          const n = [...alertValues(await kcat(output), prefix).values()].reduce((sum, l) => sum + l.length, 0);
          if (process.env.CORR_DEBUG) console.log(prefix, 'alerts so far', n);
          return n >= 1050 || undefined;
        },
        120_000,
      );
    }
    await new Promise((r) => setTimeout(r, 2000));
    const settled = await kcat(output);
    assert.equal(settled.length, 2100, 'no alert more than the reference');
    assertReference(alertValues(settled, 'past-'), 'past-', 50);
    assertReference(alertValues(settled, 'now-'), 'now-', 50);
    // the stage's internal topics exist, named after the application id, the topology and the task
    const { stdout } = await run('kcat', ['-b', testBootstrap(), '-L', '-J'], { timeout: 30_000 });
    const topics = (JSON.parse(stdout) as { topics: { topic: string; partitions: unknown[] }[] }).topics;
    const appId = settings['weir.application.id'];
    const repartition = topics.find((t) => t.topic === `${appId}-logins-1-task1-repartition`);
    const changelog = topics.find((t) => t.topic === `${appId}-logins-1-task1-changelog`);
    assert.equal(repartition?.partitions.length, 4);
    assert.equal(changelog?.partitions.length, 4);
  });

  test('a restart of the node mid-window continues the window: the alert needs events from before and after it', async () => {
    const t0 = Date.now();
    const before = Array.from({ length: 15 }, (_, i) =>
      JSON.stringify({ action: 'login', user: 'restart-0', _time: t0 + i * 1000 }),
    );
    await produce(input, before);
    // the 15 events reached the state: the changelog holds the group with its count (read by kcat)
    const appId = settings['weir.application.id'];
    await waitFor(
      'the group in the changelog',
      async () => {
        const records = await kcat(`${appId}-logins-1-task1-changelog`);
        return records.some((r) => r.includes('"count":15')) || undefined;
      },
      60_000,
    );
    await a.restart();
    token = (await a.login('admin', 'admin-pw')).access_token;
    await waitForRunning(a, token);
    const afterRestart = Array.from({ length: 10 }, (_, i) =>
      JSON.stringify({ action: 'login', user: 'restart-0', _time: t0 + (15 + i) * 1000 }),
    );
    await produce(input, afterRestart);
    const alerts = await waitFor(
      'the alerts of restart-0',
      async () => {
        const by = alertValues(await kcat(output), 'restart-');
        return (by.get('restart-0')?.length ?? 0) >= 6 ? by : undefined;
      },
      90_000,
    );
    assert.deepEqual(alerts.get('restart-0'), [20, 21, 22, 23, 24, 25]);
  });

  test('a second node joining a running stream: no alert missing, none twice (counted with kcat)', async () => {
    const t0 = Date.now() + MIN;
    const users = 400;
    const events = [...logins('join-', users, t0, 0), ...logins('join-', users, t0, 1)];
    const chunk = Math.ceil(events.length / 16);
    let b: TestNode | undefined;
    try {
      for (let i = 0; i < 16; i++) {
        await produce(input, events.slice(i * chunk, (i + 1) * chunk));
        if (i === 2) b = await startTestNode(settings); // joins the consumer group while records flow
        await new Promise((r) => setTimeout(r, 1000));
      }
      const values = await waitFor(
        `${users * 21} alerts`,
        async () => {
          const v = [...alertValues(await kcat(output), 'join-').values()].reduce((n, l) => n + l.length, 0);
          return v >= users * 21 ? v : undefined;
        },
        180_000,
      );
      assert.ok(values >= users * 21);
      await new Promise((r) => setTimeout(r, 3000));
      assertReference(alertValues(await kcat(output), 'join-'), 'join-', users);
    } finally {
      await b?.stop();
    }
  });
});

describe('idle close (weir.stream.idle-close-seconds)', () => {
  let n: TestNode;
  let token: string;
  const input = uniqueTopic('idle-in');
  const output = uniqueTopic('idle-out');

  before(async () => {
    n = await startTestNode({ ...isolatedEngine('idle'), 'weir.stream.idle-close-seconds': '2' });
    token = await n.initAdmin();
    await createTopics([input, output], 2);
    await post(n, token, '/api/tasks', {
      id: 1,
      name: 'few',
      description: '',
      function: 'PDL_EXPRESSION',
      definition: { pdl: 'event_count timespan=10s group_by user emit=close where _aggregation.value < 3' },
    });
    await post(n, token, '/api/pipelines', { id: 1, name: 'p', description: '', tasks: [1] });
    await post(n, token, '/api/topologies', {
      id: 1,
      name: 'idle',
      description: '',
      pipelines: [1],
      enabled: true,
      group: 'default',
      input: { name: input },
      output: [{ name: output }],
    });
    await waitForRunning(n, token);
  });
  after(() => n.stop());

  test('the last emit=close window of a quiet stream closes once its partition is idle, with no later event', async () => {
    // event time well in the past: only the idle close (wall-clock time passing) can close the window
    await produce(input, [JSON.stringify({ user: 'quiet', _time: Date.UTC(2023, 0, 1) })]);
    const outputs = await waitFor(
      'the closed window',
      async () => {
        const v = await kcat(output);
        return v.length > 0 ? v : undefined;
      },
      120_000,
    );
    const out = JSON.parse(outputs[0]!) as { user: string; _aggregation: { value: number } };
    assert.equal(out.user, 'quiet');
    assert.equal(out._aggregation.value, 1);
  });
});
