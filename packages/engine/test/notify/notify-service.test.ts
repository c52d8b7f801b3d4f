import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { rootCertificates } from 'node:tls';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { kafkaConsumerGroupsDescribe } from '@weir/test-helpers/kafka-tools';
import { kcatProduce, kcatValues } from '@weir/test-helpers/kcat';
import { startTestNode, testBootstrap, type TestNode } from '@weir/test-helpers/test-node';
import { Consumer, type ConsumerOptions } from '@platformatic/kafka';
import { loadSettings, SettingsError } from '../../src/config/settings.ts';
import { EngineMetrics } from '../../src/stream/engine-metrics.ts';
import { extraCertificates, NotifyService } from '../../src/notify/notify-service.ts';
import { signatureValid } from '../../src/notify/signature.ts';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from '@weir/test-helpers/webhook-receiver';

const severities = ['informational', 'low', 'medium', 'high', 'critical'] as const;

/** An alerts-topic record as the engine writes it (docs/alerts.md). */
function alertRecord(i: number): Record<string, unknown> {
  const severity = severities[i % severities.length]!;
  const techniques = i % 3 === 0 ? ['T1110.001'] : ['T1059'];
  const id = i.toString(16).padStart(32, '0');
  return {
    user: `user-${i}`,
    _rule: { id: `rule-${i % 2}`, name: `Rule ${i % 2}`, annotations: techniques },
    _alert: {
      id,
      severity,
      techniques,
      time: 1_700_000_000_000 + i,
      source: { topic: 'events', partition: 0, offset: i },
    },
  };
}

/** The alert id of alertRecord(i). */
const idOf = (i: number) => (alertRecord(i)._alert as { id: string }).id;

/** alertRecord(from) … alertRecord(to - 1) on the topic, keyed by their ids (kcat). */
const produceAlerts = (topic: string, from: number, to: number) =>
  kcatProduce(
    topic,
    Array.from({ length: to - from }, (_, i) => [idOf(from + i), JSON.stringify(alertRecord(from + i))]),
  );

type Body = { notifier: string; delivery: string; alert: { _alert: { id: string } } };
const bodyOf = (r: ReceivedRequest) => JSON.parse(r.body.toString('utf8')) as Body;

const secrets = { soc: 'soc-secret-0123456789', brute: 'brute-secret-0123456789' };

/**
 * Two nodes of one cluster (the Kafka config store, so both see the notifiers) share the notify
 * group on a 4-partition alerts topic. The receiver refuses (503) every request for a while; one
 * node stops meanwhile; then the receiver accepts: every alert reaches each matching notifier
 * exactly once after it recovers, signed, through the node left; a silenced alert reaches none.
 */
describe('notifications through two nodes to a receiver that is down, then up', () => {
  const engine = isolatedEngine('notify');
  const prefix = engine['weir.topic.prefix']!;
  const alertsTopic = `${prefix}_alerts`;
  const settings = {
    ...engine,
    'weir.config.store': 'kafka',
    'weir.engine.autostart': 'false',
    'weir.notify.enabled': 'true',
    'weir.notify.backoff-initial-ms': '200',
    'weir.notify.backoff-max-ms': '1000',
    'weir.notify.max-attempts': '60',
  };
  let receiver: WebhookReceiver;
  let nodes: TestNode[] = [];
  let recovered = false;

  before(async () => {
    receiver = await startWebhookReceiver();
    receiver.answer = () => (recovered ? { status: 200 } : { status: 503, headers: { 'retry-after': '0' } });
    await createTopics([alertsTopic], 4);
    nodes = [await startTestNode(settings), await startTestNode(settings)];
  });
  after(async () => {
    for (const n of nodes) await n.stop();
    await receiver.close();
  });

  test('each alert arrives once per matching notifier, with a valid signature, also after a node left', async () => {
    const [a, b] = nodes as [TestNode, TestNode];
    const token = await a.initAdmin();
    const notifier = (id: keyof typeof secrets, matcher: object) => ({
      id,
      name: id,
      url: `${receiver.url}/${id}`,
      secret: secrets[id],
      matcher,
      caCertificate: receiver.cert,
    });
    for (const body of [notifier('soc', { minSeverity: 'high' }), notifier('brute', { techniques: ['T1110'] })]) {
      const res = await a.call('POST', '/api/notifiers', { token, body });
      assert.equal(res.status, 201, res.text);
    }
    // A notifier that is off receives nothing.
    const off = { ...notifier('soc', {}), id: 'off', enabled: false };
    assert.equal((await a.call('POST', '/api/notifiers', { token, body: off })).status, 201);
    // A silence of user-3's alerts (docs/alerts.md, "Silences"): they are not notified.
    const silence = await a.call('POST', '/api/silences', {
      token,
      body: {
        matchers: [{ field: 'user', op: '=', value: 'user-3' }],
        endsAt: Date.now() + 3_600_000,
        comment: 'a known host',
      },
    });
    assert.equal(silence.status, 201, silence.text);
    // Both nodes see them (the Kafka store) and have joined the one notify group.
    await waitFor('node b to see the notifiers and the silence', async () => {
      const res = await b.call('GET', '/api/notifiers', { token });
      const silences = await b.call('GET', '/api/silences', { token });
      return res.status === 200 && (res.body as unknown[]).length === 3 && (silences.body as unknown[]).length === 1;
    });
    const group = `${settings['weir.application.id']}-notify`;
    await waitFor(
      'both nodes in the notify group',
      async () => {
        const res = await a.call('GET', `/api/consumer-groups/${group}`, { token });
        const body = res.body as { state?: string; members?: number };
        return res.status === 200 && body.state === 'Stable' && body.members === 2;
      },
      60_000,
    );

    const alerts = Array.from({ length: 20 }, (_, i) => alertRecord(i));
    await kcatProduce(
      alertsTopic,
      alerts.map((r) => [(r._alert as { id: string }).id, JSON.stringify(r)]),
    );
    const notSilenced = alerts.filter((r) => r.user !== 'user-3');
    const expected = {
      soc: notSilenced.filter((r) => ['high', 'critical'].includes((r._alert as { severity: string }).severity)),
      brute: notSilenced.filter((r) => (r._alert as { techniques: string[] }).techniques[0] === 'T1110.001'),
    };
    // user-3's alert matches both notifiers: the silence is what holds it back
    assert.equal((alerts[3]!._alert as { severity: string }).severity, 'high');
    const ids = (records: Record<string, unknown>[]) => records.map((r) => (r._alert as { id: string }).id).sort();
    const refusedOnce = (id: string) =>
      new Set(
        receiver.requests.filter((r) => r.path === `/${id}` && r.status === 503).map((r) => bodyOf(r).alert._alert.id),
      );

    // Down until every expected delivery was refused at least once and 3 s passed.
    const downSince = Date.now();
    await waitFor(
      'every delivery refused once',
      async () =>
        refusedOnce('soc').size === expected.soc.length && refusedOnce('brute').size === expected.brute.length,
      60_000,
    );
    await new Promise((r) => setTimeout(r, Math.max(0, 3000 - (Date.now() - downSince))));
    // Node a goes away with its deliveries unfinished: its partitions go to node b, which reads them
    // from the offsets committed behind finished deliveries (none yet), so nothing is lost.
    await a.stop();
    nodes = [b];
    recovered = true;

    const accepted = (id: string) => receiver.requests.filter((r) => r.path === `/${id}` && r.status === 200);
    await waitFor(
      'every delivery accepted',
      async () => accepted('soc').length >= expected.soc.length && accepted('brute').length >= expected.brute.length,
      60_000,
    );
    await new Promise((r) => setTimeout(r, 3000)); // any duplicate would arrive meanwhile

    for (const id of ['soc', 'brute'] as const) {
      const got = accepted(id);
      assert.deepEqual(got.map((r) => bodyOf(r).alert._alert.id).sort(), ids(expected[id]), `${id}: once each`);
      for (const r of got) {
        const body = bodyOf(r);
        assert.ok(signatureValid(secrets[id], r.body, r.headers['x-weir-signature'] as string), `${id} signature`);
        assert.equal(body.notifier, id);
        assert.equal(r.headers['x-weir-alert-id'], body.alert._alert.id);
        assert.equal(r.headers['x-weir-delivery'], body.delivery);
        assert.equal(r.headers['content-type'], 'application/json');
        const sent = alerts.find((x) => (x._alert as { id: string }).id === body.alert._alert.id);
        assert.deepEqual(body.alert, sent, 'the alert record as produced');
      }
    }
    assert.equal(receiver.requests.filter((r) => r.path === '/off').length, 0);
    assert.ok(
      receiver.requests.some((r) => r.status === 503),
      'the receiver was down first',
    );
    const dlq = await kcatValues(`${prefix}_notify_dlq`);
    assert.deepEqual(dlq, [], 'nothing dead-lettered');
    // Every offset committed once its deliveries ended: each partition's committed offset is its end.
    type Partition = { committedOffset: number | null; endOffset: number };
    await waitFor('the notify group to commit every alert', async () => {
      const res = await b.call('GET', `/api/consumer-groups/${group}`, { token });
      const partitions = (res.body as { partitions?: Partition[] }).partitions ?? [];
      return partitions.length === 4 && partitions.every((p) => p.committedOffset === p.endOffset);
    });
  });
});

/**
 * A receiver that never recovers, with short attempt settings: each delivery is tried 3 times, then
 * written to `<prefix>_notify_dlq` with the notifier, the last error and the alert (read with kcat).
 */
describe('dead letters of a receiver that never recovers', () => {
  const engine = isolatedEngine('notify-dlq');
  const prefix = engine['weir.topic.prefix']!;
  let receiver: WebhookReceiver;
  let node: TestNode;
  let caFile: string;

  before(async () => {
    receiver = await startWebhookReceiver();
    receiver.answer = () => ({ status: 503 });
    // The receiver's certificate trusted for every receiver through the setting (no caCertificate below).
    caFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'weir-notify-ca-')), 'receiver-ca.pem');
    writeFileSync(caFile, receiver.cert);
    node = await startTestNode({
      ...engine,
      'weir.engine.autostart': 'false',
      'weir.notify.enabled': 'true',
      'weir.notify.ca-certificates': caFile,
      'weir.notify.backoff-initial-ms': '100',
      'weir.notify.backoff-max-ms': '200',
      'weir.notify.max-attempts': '3',
    });
  });
  after(async () => {
    await node.stop();
    await receiver.close();
    rmSync(path.dirname(caFile), { recursive: true, force: true });
  });

  test('after the last attempt: one dead-letter record per delivery, and the metric', async () => {
    const token = await node.initAdmin();
    const body = {
      id: 'down',
      name: 'Down',
      url: `${receiver.url}/down`,
      secret: 'down-secret-0123456789',
    };
    assert.equal((await node.call('POST', '/api/notifiers', { token, body })).status, 201);
    const alerts = [alertRecord(3), alertRecord(4)];
    await kcatProduce(
      `${prefix}_alerts`,
      alerts.map((r) => [(r._alert as { id: string }).id, JSON.stringify(r)]),
    );
    const dlqTopic = `${prefix}_notify_dlq`;
    const letters = await waitFor(
      'two dead letters',
      async () => {
        const values = await kcatValues(dlqTopic).catch(() => []);
        return values.length >= 2 ? values : undefined;
      },
      60_000,
    );
    const parsed = letters.map((v) => JSON.parse(v) as Record<string, unknown>);
    parsed.sort((x, y) => String(x.alertId).localeCompare(String(y.alertId)));
    assert.deepEqual(
      parsed.map(({ failedAt, delivery, ...rest }) => {
        assert.ok(!Number.isNaN(Date.parse(String(failedAt))));
        assert.match(String(delivery), /^[0-9a-f]{32}$/);
        return rest;
      }),
      alerts.map((alert) => ({
        notifier: 'down',
        alertId: (alert._alert as { id: string }).id,
        attempts: 3,
        lastError: 'HTTP 503: unavailable',
        alert,
      })),
    );
    assert.equal(receiver.requests.length, 6, 'three attempts per alert');
    const metrics = await node.node.context.metrics.registry.getSingleMetricAsString(
      'weir_notifications_dead_lettered_total',
    );
    assert.match(metrics, /weir_notifications_dead_lettered_total\{notifier="down"\} 2/);
    const retried = await node.node.context.metrics.registry.getSingleMetricAsString(
      'weir_notifications_retried_total',
    );
    assert.match(retried, /weir_notifications_retried_total\{notifier="down"\} 4/);
  });
});

/**
 * No notifier enabled: the node reads no alert; it keeps the notify group's committed offsets at the
 * alerts topic's end without joining it (checked with Kafka's own kafka-consumer-groups). A notifier
 * made then gets the alerts written after it and none of those before; with it disabled again the
 * node leaves the group and the offsets follow the end once more.
 */
test('no notifier enabled: the group follows the end unjoined; a notifier made later gets only later alerts', async (t) => {
  const engine = isolatedEngine('notify-idle');
  const alertsTopic = `${engine['weir.topic.prefix']!}_alerts`;
  const group = `${engine['weir.application.id']!}-notify`;
  const receiver = await startWebhookReceiver();
  t.after(() => receiver.close());
  await createTopics([alertsTopic], 2);
  const node = await startTestNode({ ...engine, 'weir.engine.autostart': 'false', 'weir.notify.enabled': 'true' });
  t.after(() => node.stop());
  const token = await node.initAdmin();
  const produce = (from: number, to: number) => produceAlerts(alertsTopic, from, to);
  const groupAt = async (members: 'none' | 'one', what: string) =>
    waitFor(
      what,
      async () => {
        const rows = await kafkaConsumerGroupsDescribe(group);
        return (
          rows.length === 2 &&
          rows.every((r) => r.topic === alertsTopic && r.currentOffset === r.logEndOffset) &&
          rows.every((r) => (members === 'none' ? r.consumerId === null : r.consumerId !== null))
        );
      },
      60_000,
    );
  const received = () => receiver.requests.map((r) => bodyOf(r).alert._alert.id).sort();

  await produce(0, 10);
  await groupAt('none', 'the committed offsets at the end (10 alerts), no member');
  const body = {
    id: 'later',
    name: 'Later',
    url: `${receiver.url}/later`,
    secret: secrets.soc,
    caCertificate: receiver.cert,
  };
  assert.equal((await node.call('POST', '/api/notifiers', { token, body })).status, 201);
  await waitFor(
    'the node to join the notify group',
    async () => (await kafkaConsumerGroupsDescribe(group)).some((r) => r.consumerId !== null),
    60_000,
  );
  await produce(10, 15);
  await waitFor('the 5 later alerts delivered', async () => receiver.requests.length >= 5);
  await groupAt('one', 'every later alert committed');
  assert.deepEqual(received(), [10, 11, 12, 13, 14].map(idOf).sort(), 'only the alerts written after the notifier');

  const off = await node.call('PUT', '/api/notifiers/later', { token, body: { ...body, enabled: false } });
  assert.equal(off.status, 200, off.text);
  await waitFor(
    'the node to leave the group',
    async () => (await kafkaConsumerGroupsDescribe(group)).every((r) => r.consumerId === null),
    60_000,
  );
  await produce(15, 20);
  await groupAt('none', 'the committed offsets at the end again (20 alerts)');
  assert.equal(receiver.requests.length, 5, 'nothing sent to a disabled notifier');
});

/**
 * The Kafka client emits 'error' on a group consumer when its rejoin after a failed heartbeat fails
 * (e.g. `Connection closed` when the group's coordinator is killed). Nobody listened: an uncaught
 * exception that ended the node. The service reads again from the committed offsets instead.
 */
test("the notify consumer's own 'error' (a failed rejoin) restarts the reading; nothing is lost", async (t) => {
  const engine = isolatedEngine('notify-error');
  const alertsTopic = `${engine['weir.topic.prefix']!}_alerts`;
  const receiver = await startWebhookReceiver();
  t.after(() => receiver.close());
  await createTopics([alertsTopic], 2);
  const settings = loadSettings(undefined, {}).with({
    ...engine,
    'bootstrap.servers': testBootstrap(),
    'weir.broker.embedded': 'false',
  });
  const consumers: Consumer<Buffer, Buffer, Buffer, Buffer>[] = [];
  const warnings: string[] = [];
  const notifier = {
    id: 'soc',
    name: 'SOC',
    url: `${receiver.url}/soc`,
    secret: secrets.soc,
    caCertificate: receiver.cert,
    matcher: {},
    rateLimitPerMinute: 60_000,
    enabled: true,
  };
  const service = new NotifyService({
    settings,
    notifiers: () => [notifier],
    metrics: new EngineMetrics(),
    log: { info: () => {}, warn: (m) => warnings.push(m) },
    clientId: 'weir-notify-error-test',
    openConsumer: (options: ConsumerOptions<Buffer, Buffer, Buffer, Buffer>) => {
      const consumer = new Consumer<Buffer, Buffer, Buffer, Buffer>(options);
      consumers.push(consumer);
      return consumer;
    },
  });
  service.start();
  t.after(() => service.stop());
  const produce = (from: number, to: number) => produceAlerts(alertsTopic, from, to);
  const delivered = () => [...new Set(receiver.requests.map((r) => bodyOf(r).alert._alert.id))].sort();

  await produce(0, 5);
  await waitFor('the first 5 alerts delivered', async () => delivered().length >= 5, 60_000);
  // what the client does when its rejoin fails (consumer.js: emitWithDebug(null, 'error', error))
  consumers[0]!.emit('error', new Error('Connection closed'));
  await waitFor('a warning naming the error', async () => warnings.some((w) => w.includes('Connection closed')));
  await produce(5, 10);
  await waitFor('the next 5 alerts delivered by a new consumer', async () => delivered().length >= 10, 60_000);
  assert.equal(consumers.length, 2, 'one new consumer after the error');
  assert.deepEqual(delivered(), Array.from({ length: 10 }, (_, i) => idOf(i)).sort());
});

test('a node stopped while its notify consumer is still joining its group stops at once', async () => {
  const node = await startTestNode({
    ...isolatedEngine('notify-stop'),
    'weir.engine.autostart': 'false',
    'weir.notify.enabled': 'true',
  });
  const started = Date.now();
  await node.stop();
  assert.ok(Date.now() - started < 15_000, `stopped in ${Date.now() - started} ms`);
});

test('weir.notify.ca-certificates: PEM files added to the default CAs; an unreadable or non-PEM file stops the start', () => {
  assert.equal(extraCertificates(''), undefined);
  const files: Record<string, string> = { 'a.pem': '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n' };
  const read = (file: string) => {
    if (!(file in files)) throw new Error(`ENOENT: no such file '${file}'`);
    return files[file]!;
  };
  assert.deepEqual(extraCertificates(' a.pem ', read), [...rootCertificates, files['a.pem']]);
  files['b.txt'] = 'not a certificate';
  assert.throws(
    () => extraCertificates('a.pem,missing.pem', read),
    (err) =>
      err instanceof SettingsError &&
      err.message === "weir.notify.ca-certificates: cannot read missing.pem: ENOENT: no such file 'missing.pem'",
  );
  assert.throws(
    () => extraCertificates('b.txt', read),
    (err) =>
      err instanceof SettingsError && err.message === 'weir.notify.ca-certificates: b.txt holds no PEM certificate',
  );
});
