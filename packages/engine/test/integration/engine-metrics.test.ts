import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { isolatedEngine, post, waitFor, waitForRunning } from '@weir/test-helpers/engine';
import { ProduceAcks, Producer } from '@platformatic/kafka';
import { consume, createTopics, produce } from '@weir/test-helpers/kafka';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { testBootstrap, useTestNode } from '@weir/test-helpers/test-node';

/**
 * `GET /metrics` (plain HTTP on `weir.metrics.port`, Prometheus text) after records flowed: the
 * stream counters per topology, task and rule carry exactly what happened.
 */

interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

function parseMetrics(body: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of body.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    assert.ok(m, `a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

function get(port: number, path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type']),
            body: Buffer.concat(chunks).toString(),
          }),
        );
      })
      .on('error', reject);
  });
}

describe('the stream engine: Prometheus metrics', () => {
  let token: string;
  let port: number;
  const settings = isolatedEngine('metrics');
  const kvIn = uniqueTopic('m-kv-in');
  const kvOut = uniqueTopic('m-kv-out');
  const cefIn = uniqueTopic('m-cef-in');
  const cefOut = uniqueTopic('m-cef-out');

  const scrape = async (): Promise<Sample[]> => {
    const res = await get(port, '/metrics');
    assert.equal(res.status, 200);
    return parseMetrics(res.body);
  };
  /** The value of the one sample with this name and these labels (undefined when absent). */
  const valueOf = (samples: Sample[], name: string, labels: Record<string, string>): number | undefined => {
    const found = samples.filter(
      (s) =>
        s.name === name &&
        Object.entries(labels).every(([k, v]) => s.labels[k] === v) &&
        Object.keys(s.labels).length === Object.keys(labels).length,
    );
    assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} once`);
    return found[0]?.value;
  };

  const t = useTestNode(settings, async () => {
    token = await t.initAdmin();
    port = (t.node.metrics!.server.address() as AddressInfo).port;
    await createTopics([kvIn, kvOut, cefIn, cefOut]);
    await post(t, token, '/api/rules', {
      id: 'm-root',
      name: 'Root',
      description: '',
      pdl: 'user="root"',
      annotations: [],
      enabled: true,
    });
    await post(t, token, '/api/rules', {
      id: 'm-login',
      name: 'Login',
      description: '',
      pdl: 'action="login"',
      annotations: [],
      enabled: true,
    });
    await post(t, token, '/api/rules', {
      id: 'm-off',
      name: 'Off',
      description: '',
      pdl: 'user="*"',
      annotations: [],
      enabled: false,
    });
    await post(t, token, '/api/tasks', { id: 1, name: 'kv', description: '', function: 'PARSE_KV', definition: {} });
    await post(t, token, '/api/tasks', {
      id: 2,
      name: 'time',
      description: '',
      function: 'TIMESTAMP',
      definition: { field: 'ts', format: 'epoch_millis' },
    });
    await post(t, token, '/api/tasks', {
      id: 3,
      name: 'detect',
      description: '',
      function: 'APPLY_RULES',
      definition: { rules: ['m-off', 'm-root', 'm-login', 'm-gone'] },
    });
    await post(t, token, '/api/tasks', { id: 4, name: 'cef', description: '', function: 'PARSE_CEF', definition: {} });
    await post(t, token, '/api/pipelines', { id: 1, name: 'detect', description: '', tasks: [1, 2, 3] });
    await post(t, token, '/api/pipelines', { id: 2, name: 'cef', description: '', tasks: [4] });
    const topology = (id: number, name: string, pipelines: number[], input: string, output: string) =>
      post(t, token, '/api/topologies', {
        id,
        name,
        description: '',
        pipelines,
        enabled: true,
        group: 'default',
        input: { name: input },
        output: [{ name: output }],
      });
    await topology(1, 'm-detect', [1], kvIn, kvOut);
    await topology(2, 'm-cef', [2], cefIn, cefOut);
    await waitForRunning(t, token);
    await produce(kvIn, [
      'user=root action=login ts=1700000000000', // two alerts
      'user=root action=read ts=1700000000001', // one
      'user=bob action=login', // one (ts missing: a recovered TIMESTAMP error)
      'user=bob action=read ts=1700000000003', // none
      'user=eve action=write ts=later', // none (ts unparseable)
    ]);
    await produce(cefIn, ['CEF:0|V|P|1|s|n|3|a=1', 'not cef', 'also not cef']);
    assert.equal((await consume(kvOut, 4, 30_000)).length, 4);
    assert.equal((await consume(cefOut, 1, 30_000)).length, 1);
  });

  test('plain HTTP GET /metrics answers Prometheus text', async () => {
    const res = await get(port, '/metrics');
    assert.equal(res.status, 200);
    assert.match(res.type, /^text\/plain; version=0\.0\.4/);
    assert.match(res.body, /^# HELP weir_records_in_total Records read, per topology\.$/m);
    assert.match(res.body, /^# TYPE weir_records_in_total counter$/m);
    assert.equal((await get(port, '/nothing')).status, 404);
  });

  test('records in, out, dead-lettered per topology; rule matches per rule; task errors and skipped rules', async () => {
    // workers report every second: wait for the last counter to land, then every counter is exact
    const samples = await waitFor(
      'the counters',
      async () => {
        const s = await scrape();
        return valueOf(s, 'weir_records_dead_lettered_total', { topology: 'm-cef', task: 'cef' }) === 2 &&
          valueOf(s, 'weir_records_in_total', { topology: 'm-detect' }) === 5
          ? s
          : undefined;
      },
      20_000,
    );
    const expected: [string, Record<string, string>, number][] = [
      ['weir_records_in_total', { topology: 'm-detect' }, 5],
      ['weir_records_in_total', { topology: 'm-cef' }, 3],
      ['weir_records_out_total', { topology: 'm-detect', topic: kvOut }, 4],
      ['weir_records_out_total', { topology: 'm-cef', topic: cefOut }, 1],
      ['weir_records_dead_lettered_total', { topology: 'm-cef', task: 'cef' }, 2],
      ['weir_rule_matches_total', { rule: 'm-root' }, 2],
      ['weir_rule_matches_total', { rule: 'm-login' }, 2],
      ['weir_alerts_total', { topology: 'm-detect' }, 4],
      ['weir_task_errors_total', { task: 'time' }, 2],
      ['weir_rules_skipped_total', { rule: 'm-off', reason: 'disabled' }, 5],
      ['weir_rules_skipped_total', { rule: 'm-gone', reason: 'missing' }, 5],
    ];
    for (const [name, labels, value] of expected)
      assert.equal(valueOf(samples, name, labels), value, `${name} ${JSON.stringify(labels)}`);
    assert.equal(
      valueOf(samples, 'weir_rule_matches_total', { rule: 'm-off' }),
      undefined,
      'a disabled rule never matches',
    );
    assert.equal(valueOf(samples, 'weir_records_dead_lettered_total', { topology: 'm-detect', task: 'kv' }), undefined);
  });

  test('worker state: 1 for RUNNING, 0 for every other state; after a stop, NOT_RUNNING', async () => {
    let samples = await scrape();
    const states = samples.filter((s) => s.name === 'weir_worker_state' && s.labels.worker === '0');
    assert.ok(states.length >= 5, 'one sample per state');
    assert.deepEqual(
      states.filter((s) => s.value === 1).map((s) => s.labels.state),
      ['RUNNING'],
    );
    assert.deepEqual((await t.call('POST', '/api/engine/stop', { token })).body, { states: ['NOT_RUNNING'] });
    samples = await scrape();
    assert.deepEqual(
      samples.filter((s) => s.name === 'weir_worker_state' && s.value === 1).map((s) => s.labels.state),
      ['NOT_RUNNING'],
    );
    await t.call('POST', '/api/engine/start', { token });
    await waitForRunning(t, token);
    await waitFor(
      'RUNNING in the metrics',
      async () => valueOf(await scrape(), 'weir_worker_state', { worker: '0', state: 'RUNNING' }) === 1,
    );
  });

  test('consumer lag per input partition reaches 0 once everything is processed; batch latency is observed', async () => {
    const samples = await waitFor(
      'the lag of both inputs',
      async () => {
        const s = await scrape();
        return valueOf(s, 'weir_consumer_lag', { topic: kvIn, partition: '0' }) === 0 &&
          valueOf(s, 'weir_consumer_lag', { topic: cefIn, partition: '0' }) === 0
          ? s
          : undefined;
      },
      20_000,
    );
    const count = valueOf(samples, 'weir_batch_processing_seconds_count', {})!;
    const sum = valueOf(samples, 'weir_batch_processing_seconds_sum', {})!;
    assert.ok(count >= 1 && count <= 8, `one observation per batch (${count})`);
    assert.ok(sum > 0 && sum < 30, `seconds (${sum})`);
    assert.equal(valueOf(samples, 'weir_batch_processing_seconds_bucket', { le: '+Inf' }), count);
  });

  test("per-step histograms: every batch's steps, and its oldest record's age, a replayed one's included", async () => {
    const ageCount = (s: Sample[], step: string) => valueOf(s, 'weir_record_age_seconds_count', { step }) ?? 0;
    // the setup's records are processed and acknowledged (workers report every second)
    const before = await waitFor(
      'the steps of the setup batches',
      async () => {
        const s = await scrape();
        const acknowledged = ageCount(s, 'acknowledged');
        return acknowledged >= 1 && acknowledged === ageCount(s, 'taken') && acknowledged === ageCount(s, 'processed')
          ? s
          : undefined;
      },
      20_000,
    );
    for (const step of ['taken', 'processed', 'acknowledged']) {
      const count = ageCount(before, step);
      assert.ok(count <= 8, `one observation per batch (${step}: ${count})`);
      assert.equal(valueOf(before, 'weir_record_age_seconds_bucket', { step, le: '+Inf' }), count);
      // records written just now: each batch's oldest is seconds old at most
      assert.equal(valueOf(before, 'weir_record_age_seconds_bucket', { step, le: '60' }), count, step);
    }
    for (const step of ['backpressure', 'process', 'write_wait', 'produce', 'commit']) {
      const count = valueOf(before, 'weir_batch_step_seconds_count', { step })!;
      assert.ok(count >= 1, `${step} observed (${count})`);
      assert.equal(valueOf(before, 'weir_batch_step_seconds_bucket', { step, le: '+Inf' }), count);
      assert.ok(valueOf(before, 'weir_batch_step_seconds_sum', { step })! < 30, step);
    }
    // a replayed record, created three days ago: its age counts in +Inf only, and says three days
    const producer = new Producer({ clientId: 'weir-test-replay', bootstrapBrokers: [testBootstrap()] });
    const created = Date.now() - 3 * 86_400_000;
    try {
      await producer.send({
        messages: [{ topic: cefIn, value: Buffer.from('CEF:0|V|P|1|s|n|3|a=old'), timestamp: BigInt(created) }],
        acks: ProduceAcks.ALL,
      });
    } finally {
      await producer.close();
    }
    const after = await waitFor(
      'the replayed batch acknowledged',
      async () => {
        const s = await scrape();
        return ageCount(s, 'acknowledged') > ageCount(before, 'acknowledged') ? s : undefined;
      },
      20_000,
    );
    const acknowledged = ageCount(after, 'acknowledged') - ageCount(before, 'acknowledged');
    assert.equal(acknowledged, 1, 'one batch');
    const bucket = (s: Sample[], le: string) =>
      valueOf(s, 'weir_record_age_seconds_bucket', { step: 'acknowledged', le });
    assert.equal(bucket(after, '60'), bucket(before, '60'), 'not within a minute');
    assert.equal(bucket(after, '+Inf'), bucket(before, '+Inf')! + 1);
    const age =
      valueOf(after, 'weir_record_age_seconds_sum', { step: 'acknowledged' })! -
      valueOf(before, 'weir_record_age_seconds_sum', { step: 'acknowledged' })!;
    assert.ok(age >= 3 * 86_400 && age < 3 * 86_400 + 60, `three days (${age} s)`);
  });

  test('records produced while the engine was stopped are counted after the start', async () => {
    await t.call('POST', '/api/engine/stop', { token });
    await produce(kvIn, ['user=zed action=read ts=1', 'user=zed action=read ts=2', 'user=zed action=read ts=3']);
    await t.call('POST', '/api/engine/start', { token });
    await waitForRunning(t, token);
    await waitFor(
      'records in after the start',
      async () => valueOf(await scrape(), 'weir_records_in_total', { topology: 'm-detect' }) === 8,
      20_000,
    );
  });
});
