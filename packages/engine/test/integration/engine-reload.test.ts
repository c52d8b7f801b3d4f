import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test, type TestContext } from 'node:test';
import { Consumer, type MessagesStream } from '@platformatic/kafka';
import { isolatedEngine, post, waitFor, waitForRunning } from '@weir/test-helpers/engine';
import { createTopics, produce, type RawMessage } from '@weir/test-helpers/kafka';
import { multipartBody } from '@weir/test-helpers/multipart';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { startTestNode, testBootstrap, type TestNode } from '@weir/test-helpers/test-node';

/**
 * Hot reload (issue #6, item 5): topologies, pipelines, tasks, rules and lookups created, updated,
 * disabled or deleted while the engine runs take effect within seconds, without a restart, and no
 * record is lost (at-least-once: duplicates are allowed and reported as test diagnostics).
 */

type Json = Record<string, unknown>;

/** Reads a topic from its start for as long as the test runs, so each check sees new records at once. */
class Tail {
  readonly records: Json[] = [];
  #consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  #stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  #loop: Promise<void> | undefined;
  readonly topic: string;

  constructor(topic: string) {
    this.topic = topic;
  }

  async start(): Promise<void> {
    this.#consumer = new Consumer({
      clientId: 'weir-test-tail',
      groupId: `weir-test-tail-${randomBytes(6).toString('hex')}`,
      bootstrapBrokers: [testBootstrap()],
      maxWaitTime: 100,
    });
    this.#stream = await this.#consumer.consume({ topics: [this.topic], mode: 'earliest', autocommit: false });
    const stream = this.#stream;
    this.#loop = (async () => {
      try {
        for await (const m of stream) this.records.push(JSON.parse((m as RawMessage).value.toString('utf8')) as Json);
      } catch {
        // closed
      }
    })();
  }

  async stop(): Promise<void> {
    await this.#stream?.close().catch(() => {});
    await this.#loop;
    await this.#consumer?.close(true).catch(() => {});
  }

  /** Waits until a record satisfies `predicate`; returns it. */
  until(what: string, predicate: (r: Json) => boolean, timeoutMs = 20_000): Promise<Json> {
    return waitFor(`${what} on ${this.topic}`, async () => this.records.find(predicate), timeoutMs);
  }

  /** Every `seq` in `expected` is present (nothing lost); returns how many extra copies came (duplicates). */
  assertAll(expected: readonly number[], only: (r: Json) => boolean = () => true): number {
    const seen = new Map<unknown, number>();
    for (const r of this.records) if (only(r)) seen.set(r.seq, (seen.get(r.seq) ?? 0) + 1);
    const missing = expected.filter((s) => !seen.has(s));
    assert.deepEqual(missing, [], `records lost on ${this.topic}`);
    return expected.reduce((n, s) => n + (seen.get(s)! - 1), 0);
  }
}

describe('the stream engine: hot reload without a restart', () => {
  let t: TestNode;
  let token: string;
  const settings = isolatedEngine('reload');
  const tails: Tail[] = [];
  let seq = 0;

  const tail = async (topic: string): Promise<Tail> => {
    const x = new Tail(topic);
    await x.start();
    tails.push(x);
    return x;
  };
  const put = async (path: string, body: unknown) => {
    const res = await t.call('PUT', path, { token, body });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
  };
  const del = async (path: string) => {
    const res = await t.call('DELETE', path, { token });
    assert.equal(res.status, 204, `${path}: ${res.text}`);
  };
  const send = async (topic: string, events: Json[]): Promise<number[]> => {
    const seqs = events.map(() => ++seq);
    await produce(
      topic,
      events.map((e, i) => JSON.stringify({ ...e, seq: seqs[i] })),
    );
    return seqs;
  };
  const topology = (id: number, name: string, pipelines: number[], input: string, output: string, enabled = true) => ({
    id,
    name,
    description: '',
    pipelines,
    enabled,
    group: 'default',
    input: { name: input },
    output: [{ name: output }],
  });
  const evalTask = (id: number, name: string, field: string, value: string) => ({
    id,
    name,
    description: '',
    function: 'EVAL',
    definition: { eval: [{ action: 'set', field, value }] },
  });
  const report = (c: TestContext, topic: Tail, expected: number[]) => {
    const duplicates = topic.assertAll(expected);
    c.diagnostic(`${expected.length} records, none lost, ${duplicates} duplicate(s)`);
  };

  before(async () => {
    t = await startTestNode(settings);
    token = await t.initAdmin();
    await waitForRunning(t, token);
  });
  after(async () => {
    await Promise.all(tails.map((x) => x.stop()));
    await t?.stop();
  });

  test('a topology created while the engine runs starts processing, from the start of its input', async (c) => {
    const input = uniqueTopic('reload-new-in');
    const output = uniqueTopic('reload-new-out');
    await createTopics([input, output]);
    const out = await tail(output);
    const before = await send(input, [{ n: 1 }, { n: 2 }]);
    await post(t, token, '/api/tasks', evalTask(10, 'new-tag', 'tag', '"new"'));
    await post(t, token, '/api/pipelines', { id: 10, name: 'new', description: '', tasks: [10] });
    const started = Date.now();
    await post(t, token, '/api/topologies', topology(10, 'new', [10], input, output));
    await out.until('the records produced before the topology existed', (r) => r.seq === before[1]);
    c.diagnostic(`first output ${Date.now() - started} ms after the topology was created`);
    // regression: the consumer stream stalled after its first batch when no 'readable' listener was left while it was processed
    const later = await send(input, [{ n: 3 }]);
    await out.until('a later record', (r) => r.seq === later[0]);
    assert.ok(out.records.every((r) => r.tag === 'new'));
    report(c, out, [...before, ...later]);
  });

  test('a task and a pipeline updated while running: the output changes within seconds, nothing lost', async (c) => {
    const input = uniqueTopic('reload-upd-in');
    const output = uniqueTopic('reload-upd-out');
    await createTopics([input, output]);
    const out = await tail(output);
    await post(t, token, '/api/tasks', evalTask(20, 'version', 'version', '1'));
    await post(t, token, '/api/tasks', evalTask(21, 'extra', 'extra', '"yes"'));
    await post(t, token, '/api/pipelines', { id: 20, name: 'versioned', description: '', tasks: [20] });
    await post(t, token, '/api/topologies', topology(20, 'versioned', [20], input, output));
    const sent: number[] = [];
    const v1 = await send(input, [{}]);
    sent.push(...v1);
    await out.until('version 1', (r) => r.seq === v1[0] && r.version === 1);

    // the task: version 1 → 2
    let changed = Date.now();
    await put('/api/tasks/20', evalTask(20, 'version', 'version', '2'));
    const v2 = await waitFor(
      'version 2 in the output',
      async () => {
        const [s] = await send(input, [{}]);
        sent.push(s!);
        return (await out.until(`record ${s}`, (r) => r.seq === s)).version === 2 ? s : undefined;
      },
      15_000,
    );
    c.diagnostic(`task update effective after ${Date.now() - changed} ms (record ${v2})`);
    const after2 = await send(input, [{}, {}]);
    sent.push(...after2);
    for (const s of after2)
      assert.equal((await out.until(`record ${s}`, (r) => r.seq === s)).version, 2, 'stays updated');

    // the pipeline: a second task appended
    changed = Date.now();
    await put('/api/pipelines/20', { id: 20, name: 'versioned', description: '', tasks: [20, 21] });
    await waitFor(
      'the appended task in the output',
      async () => {
        const [s] = await send(input, [{}]);
        sent.push(s!);
        return (await out.until(`record ${s}`, (r) => r.seq === s)).extra === 'yes';
      },
      15_000,
    );
    c.diagnostic(`pipeline update effective after ${Date.now() - changed} ms`);
    const versions = out.records.map((r) => r.version);
    assert.ok(
      versions.every((v) => v === 1 || v === 2),
      'every record carries a version',
    );
    report(c, out, sent);
  });

  test('a topology disabled stops its output; re-enabled, it processes what was produced meanwhile; deleted and created again, the same', async (c) => {
    const input = uniqueTopic('reload-dis-in');
    const output = uniqueTopic('reload-dis-out');
    await createTopics([input, output]);
    const out = await tail(output);
    await post(t, token, '/api/tasks', evalTask(30, 'mark', 'mark', 'true'));
    await post(t, token, '/api/pipelines', { id: 30, name: 'mark', description: '', tasks: [30] });
    const spec = topology(30, 'switchable', [30], input, output);
    await post(t, token, '/api/topologies', spec);
    const first = await send(input, [{ phase: 'on' }]);
    await out.until('the first record', (r) => r.seq === first[0]);

    await put('/api/topologies/30', { ...spec, enabled: false });
    await new Promise((r) => setTimeout(r, 1500));
    const whileDisabled = await send(input, [{ phase: 'off' }, { phase: 'off' }, { phase: 'off' }]);
    await new Promise((r) => setTimeout(r, 3000));
    assert.deepEqual(
      out.records.filter((r) => r.phase === 'off'),
      [],
      'nothing flows while the topology is disabled',
    );

    let changed = Date.now();
    await put('/api/topologies/30', spec);
    for (const s of whileDisabled) await out.until(`record ${s} produced while disabled`, (r) => r.seq === s);
    c.diagnostic(`re-enabled: the backlog arrived after ${Date.now() - changed} ms`);

    await del('/api/topologies/30');
    await new Promise((r) => setTimeout(r, 1500));
    const whileDeleted = await send(input, [{ phase: 'gone' }, { phase: 'gone' }]);
    await new Promise((r) => setTimeout(r, 3000));
    assert.deepEqual(
      out.records.filter((r) => r.phase === 'gone'),
      [],
      'nothing flows while the topology is deleted',
    );
    changed = Date.now();
    await post(t, token, '/api/topologies', spec);
    for (const s of whileDeleted) await out.until(`record ${s} produced while deleted`, (r) => r.seq === s);
    c.diagnostic(`created again: the backlog arrived after ${Date.now() - changed} ms`);
    const last = await send(input, [{ phase: 'on' }]);
    await out.until('a record after', (r) => r.seq === last[0]);
    assert.ok(out.records.every((r) => r.mark === true));
    report(c, out, [...first, ...whileDisabled, ...whileDeleted, ...last]);
  });

  test('a rule created, updated, disabled, enabled and deleted while running takes effect', async (c) => {
    const input = uniqueTopic('reload-rule-in');
    const output = uniqueTopic('reload-rule-out');
    await createTopics([input, output]);
    const out = await tail(output);
    // every record raises the sentinel's alert, after the alert of the rule under test when that one matches
    await post(t, token, '/api/rules', {
      id: 'rl-sentinel',
      name: 'Sentinel',
      description: '',
      pdl: 'user="*"',
      annotations: [],
      enabled: true,
    });
    await post(t, token, '/api/tasks', {
      id: 40,
      name: 'rules',
      description: '',
      function: 'APPLY_RULES',
      definition: { rules: ['rl-x', 'rl-sentinel'] },
    });
    await post(t, token, '/api/pipelines', { id: 40, name: 'rules', description: '', tasks: [40] });
    await post(t, token, '/api/topologies', topology(40, 'rules', [40], input, output));
    const sent: number[] = [];
    /** Whether rule rl-x raised an alert for a new record of `user`. */
    const probe = async (user: string): Promise<boolean> => {
      const [s] = await send(input, [{ user }]);
      sent.push(s!);
      await out.until(`the sentinel alert of ${s}`, (r) => r.seq === s && (r._rule as Json).id === 'rl-sentinel');
      return out.records.some((r) => r.seq === s && (r._rule as Json).id === 'rl-x');
    };
    /** Probes until the rule behaves as expected (the change took effect), then once more (it stays). */
    const expectRule = async (what: string, user: string, matches: boolean) => {
      const changed = Date.now();
      await waitFor(what, async () => (await probe(user)) === matches, 15_000);
      assert.equal(await probe(user), matches, `${what}: stays so`);
      c.diagnostic(`${what}: effective after ${Date.now() - changed} ms`);
    };
    const rule = { id: 'rl-x', name: 'X', description: '', pdl: 'user="alice"', annotations: ['a'], enabled: true };

    assert.equal(await probe('alice'), false, 'a missing rule is skipped');
    await post(t, token, '/api/rules', rule);
    await expectRule('created', 'alice', true);
    await put('/api/rules/rl-x', { ...rule, pdl: 'user="bob"' });
    await expectRule('updated: no longer alice', 'alice', false);
    assert.equal(await probe('bob'), true, 'updated: bob');
    await put('/api/rules/rl-x', { ...rule, pdl: 'user="bob"', enabled: false });
    await expectRule('disabled', 'bob', false);
    await put('/api/rules/rl-x', { ...rule, pdl: 'user="bob"', name: 'X2' });
    await expectRule('enabled again', 'bob', true);
    const renamed = out.records.filter((r) => (r._rule as Json).id === 'rl-x').at(-1)!;
    assert.deepEqual(
      renamed._rule,
      { id: 'rl-x', name: 'X2', annotations: ['a'] },
      'the alert names the rule as updated',
    );
    await del('/api/rules/rl-x');
    await expectRule('deleted', 'bob', false);
    const duplicates = out.assertAll(sent, (r) => (r._rule as Json).id === 'rl-sentinel');
    c.diagnostic(`${sent.length} records, none lost, ${duplicates} duplicate(s)`);
  });

  test('a lookup updated while running takes effect for a PDL lookup stage', async (c) => {
    const input = uniqueTopic('reload-lookup-in');
    const output = uniqueTopic('reload-lookup-out');
    await createTopics([input, output]);
    const out = await tail(output);
    const upload = async (
      path: string,
      parts: { name: string; value: string; filename?: string; contentType?: string }[],
      status: number,
    ) => {
      const { body, contentType } = multipartBody(parts);
      const res = await t.call('POST', path, { token, body, contentType });
      assert.equal(res.status, status, res.text);
    };
    await upload(
      '/api/lookups',
      [
        { name: 'id', value: 'departments' },
        { name: 'file', value: 'user,dept\nalice,R&D\nbob,Ops\n', filename: 'd.csv', contentType: 'text/csv' },
      ],
      201,
    );
    await post(t, token, '/api/tasks', {
      id: 50,
      name: 'enrich',
      description: '',
      function: 'PDL_EXPRESSION',
      definition: { pdl: 'lookup departments user OUTPUT dept' },
    });
    await post(t, token, '/api/pipelines', { id: 50, name: 'enrich', description: '', tasks: [50] });
    await post(t, token, '/api/topologies', topology(50, 'enrich', [50], input, output));
    const sent: number[] = [];
    const deptOf = async (user: string) => {
      const [s] = await send(input, [{ user }]);
      sent.push(s!);
      return (await out.until(`record ${s}`, (r) => r.seq === s)).dept;
    };
    assert.equal(await deptOf('alice'), 'R&D');
    assert.equal(await deptOf('carol'), undefined);
    const changed = Date.now();
    await upload(
      '/api/lookups/departments',
      [{ name: 'file', value: 'user,dept\nalice,Sales\ncarol,Legal\n', filename: 'd2.csv', contentType: 'text/csv' }],
      200,
    );
    await waitFor('the updated lookup', async () => (await deptOf('alice')) === 'Sales', 15_000);
    c.diagnostic(`lookup update effective after ${Date.now() - changed} ms`);
    assert.equal(await deptOf('carol'), 'Legal');
    assert.equal(await deptOf('bob'), undefined, 'a row removed by the update');
    // A later change of something else reloads the workers without resending lookups: the tables stay.
    await post(t, token, '/api/tasks', {
      id: 51,
      name: 'unrelated',
      description: '',
      function: 'PARSE_KV',
      definition: {},
    });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await deptOf('alice'), 'Sales');
    report(c, out, sent);
  });
});
