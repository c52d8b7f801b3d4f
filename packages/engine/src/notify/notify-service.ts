import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import {
  Admin,
  Consumer,
  FetchIsolationLevels,
  ProduceAcks,
  Producer,
  type ConsumerOptions,
  type Message,
  type MessagesStream,
} from '@platformatic/kafka';
import { readAlert, type StoredNotifier } from '@weir/contract';
import { SettingsError, type Settings } from '../config/settings.ts';
import { isTopicAlreadyExists } from '../kafka/broker-errors.ts';
import { kafkaConnection } from '../kafka/client-options.ts';
import { internalReplication, describeError } from '../kafka/weir-topic-setup.ts';
import { alertsTopicName, notifyDeadLetterTopicName } from '../kafka/weir-topics.ts';
import type { EngineMetrics } from '../stream/engine-metrics.ts';
import { metricNames } from '../stream/metric-names.ts';
import type { RetryPolicy } from './backoff.ts';
import { deliver, deliveryId, type DeliveryPorts, type DeliveryTarget } from './delivery.ts';
import { matcherHolds, type NotifiedAlert } from './matcher.ts';
import { OffsetLedger } from './offset-ledger.ts';
import { RateLimiter } from './rate-limiter.ts';
import { noAlertSilenced, type AlertSilenced } from './silences.ts';
import { postWebhook } from './webhook.ts';

export interface NotifyServiceOptions {
  readonly settings: Settings;
  /** The notifiers as stored (secrets included), read at each alert. */
  readonly notifiers: () => readonly StoredNotifier[];
  readonly metrics: EngineMetrics;
  readonly log: { info(message: string): void; warn(message: string): void };
  /** The silences seam (silences.ts): whether an alert is silenced now. Default: none is. */
  readonly isSilenced?: AlertSilenced;
  /** Kafka client id of this node's notify clients. */
  readonly clientId: string;
  /** The notify group's consumer (tests reach the client's own events through it). */
  readonly openConsumer?: (
    options: ConsumerOptions<Buffer, Buffer, Buffer, Buffer>,
  ) => Consumer<Buffer, Buffer, Buffer, Buffer>;
}

const restartDelayMs = 5000;
const commitEveryMs = 500;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The extra CAs of `weir.notify.ca-certificates` (PEM files), with Node's default ones; undefined when none. */
export function extraCertificates(
  setting: string,
  read = (file: string) => readFileSync(file, 'utf8'),
): string[] | undefined {
  const files = setting
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  if (files.length === 0) return undefined;
  return [
    ...rootCertificates,
    ...files.map((file) => {
      let text: string;
      try {
        text = read(file);
      } catch (err) {
        throw new SettingsError(`weir.notify.ca-certificates: cannot read ${file}: ${(err as Error).message}`);
      }
      if (!text.includes('-----BEGIN CERTIFICATE-----'))
        throw new SettingsError(`weir.notify.ca-certificates: ${file} holds no PEM certificate`);
      return text;
    }),
  ];
}

const partitionKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/**
 * The notifications of one node (docs/alerts.md, "Notifications"): a consumer of the alerts topic in
 * the cluster's one notify group (`<weir.application.id>-notify`), so each alert is read by one node
 * and a lost node's partitions go to another. Each alert goes to every enabled notifier whose
 * matcher holds and which the silences seam does not silence (delivery.ts: signed HTTPS POSTs,
 * retries, the rate limit); a delivery given up is written to `<prefix>_notify_dlq`. Offsets are
 * committed behind the deliveries (offset-ledger.ts), so nothing is lost when a receiver or a node
 * goes down; a record may be delivered twice after a crash or a rebalance (same `X-Weir-Delivery`).
 */
export class NotifyService {
  readonly #o: NotifyServiceOptions;
  readonly #stopped = new AbortController();
  readonly #ledger = new OffsetLedger();
  /** Aborts the deliveries of a partition that moved to another node. */
  readonly #partitionAborts = new Map<string, AbortController>();
  readonly #limiters = new Map<string, RateLimiter>();
  readonly #policy: RetryPolicy & { readonly timeoutMs: number };
  readonly #maxInFlight: number;
  readonly #alertsTopic: string;
  readonly #dlqTopic: string;
  readonly #groupId: string;
  readonly #isSilenced: AlertSilenced;
  readonly #extraCa: string[] | undefined;
  #consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  #stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  #producer: Producer<Buffer, Buffer, Buffer, Buffer> | undefined;
  /** Offsets to commit (next to read) per partition, not yet committed. */
  readonly #toCommit = new Map<string, { topic: string; partition: number; offset: bigint }>();
  #committing: Promise<void> | undefined;
  #capacity: (() => void) | undefined;
  #loop: Promise<void> | undefined;
  readonly #warned = new Set<string>();

  constructor(options: NotifyServiceOptions) {
    const s = options.settings;
    this.#o = options;
    this.#policy = {
      maxAttempts: s.get('weir.notify.max-attempts'),
      initialMs: s.get('weir.notify.backoff-initial-ms'),
      maxMs: s.get('weir.notify.backoff-max-ms'),
      timeoutMs: s.get('weir.notify.request-timeout-ms'),
    };
    this.#maxInFlight = s.get('weir.notify.max-in-flight');
    const prefix = s.get('weir.topic.prefix');
    this.#alertsTopic = alertsTopicName(prefix, s.get('weir.output.names'));
    this.#dlqTopic = notifyDeadLetterTopicName(prefix);
    this.#groupId = `${s.get('weir.application.id')}-notify`;
    this.#isSilenced = options.isSilenced ?? noAlertSilenced;
    this.#extraCa = extraCertificates(s.get('weir.notify.ca-certificates'));
  }

  /** The consumer group of the notifications, shared by every node of the cluster. */
  get groupId(): string {
    return this.#groupId;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Stops reading and aborts the deliveries in flight (their records are delivered again after a restart). */
  async stop(): Promise<void> {
    this.#stopped.abort(new Error('the node is stopping'));
    this.#capacity?.();
    // Reading: the stream closes on the abort (see #consume). Still joining: closing the consumer ends the join.
    if (!this.#stream) await this.#consumer?.close(true).catch(() => {});
    await this.#loop;
  }

  async #run(): Promise<void> {
    const signal = this.#stopped.signal;
    while (!signal.aborted) {
      if (!this.#anyEnabled()) {
        await this.#followEnd(signal);
        continue;
      }
      try {
        await this.#consume();
        continue; // every notifier was disabled: back to following the end
      } catch (err) {
        if (!signal.aborted) this.#o.log.warn(`notifications: ${describeError(err)}; reading again in 5 s`);
      } finally {
        await this.#close();
      }
      await sleep(restartDelayMs, signal).catch(() => {});
    }
  }

  #anyEnabled(): boolean {
    return this.#o.notifiers().some((n) => n.enabled);
  }

  /**
   * While no notifier is enabled the node reads no alert (docs/alerts.md, "Delivery, retries, rate
   * limit, dead letters"): it keeps the notify group's committed offsets at the alerts topic's end
   * (its last stable offsets, so an open transaction's alerts are not passed over), so a notifier
   * enabled later gets the alerts from about then on (at most `commitEveryMs` earlier), as if the
   * ones before had been read, without the node fetching and decoding every alert meanwhile. A group
   * with members (a node that sees an enabled notifier) keeps its offsets: the move is refused and
   * tried again. Returns when a notifier is enabled or the node stops.
   */
  async #followEnd(signal: AbortSignal): Promise<void> {
    const admin = new Admin({
      ...kafkaConnection(this.#o.settings, this.#o.clientId),
      clientId: `${this.#o.clientId}-end`,
    });
    const moved = new Map<number, bigint>();
    try {
      while (!signal.aborted && !this.#anyEnabled()) {
        await this.#commitEnd(admin, moved).catch(() => moved.clear());
        await sleep(commitEveryMs, signal).catch(() => {});
      }
    } finally {
      await admin.close().catch(() => {});
    }
  }

  /** Commits the alerts topic's last stable offsets for the notify group where they moved since `moved`. */
  async #commitEnd(admin: Admin, moved: Map<number, bigint>): Promise<void> {
    const topic = this.#alertsTopic;
    const info = (await admin.metadata({ topics: [topic] })).topics.get(topic);
    if (!info) return;
    const listed = await admin.listOffsets({
      topics: [
        {
          name: topic,
          partitions: Array.from({ length: info.partitionsCount }, (_, partitionIndex) => ({
            partitionIndex,
            timestamp: -1n,
          })),
        },
      ],
      isolationLevel: FetchIsolationLevels.READ_COMMITTED,
    });
    const partitionOffsets = (listed[0]?.partitions ?? [])
      .filter((p) => moved.get(p.partitionIndex) !== p.offset)
      .map((p) => ({ partition: p.partitionIndex, offset: p.offset }));
    // listed before this check: a notifier enabled after it gets every alert written after the listing
    if (partitionOffsets.length === 0 || this.#anyEnabled()) return;
    await admin.alterConsumerGroupOffsets({ groupId: this.#groupId, topics: [{ name: topic, partitionOffsets }] });
    for (const p of partitionOffsets) moved.set(p.partition, p.offset);
  }

  async #consume(): Promise<void> {
    const connection = kafkaConnection(this.#o.settings, this.#o.clientId);
    await this.#ensureDeadLetterTopic(connection);
    this.#producer ??= new Producer<Buffer, Buffer, Buffer, Buffer>({
      ...connection,
      clientId: `${this.#o.clientId}-dlq`,
      acks: ProduceAcks.ALL,
      idempotent: true,
    });
    const options: ConsumerOptions<Buffer, Buffer, Buffer, Buffer> = {
      ...connection,
      clientId: `${this.#o.clientId}-consumer`,
      groupId: this.#groupId,
      sessionTimeout: 10_000,
      heartbeatInterval: 1000,
      rebalanceTimeout: 60_000,
    };
    const consumer = this.#o.openConsumer?.(options) ?? new Consumer<Buffer, Buffer, Buffer, Buffer>(options);
    this.#consumer = consumer;
    consumer.on('consumer:group:join', () => this.#assignmentChanged());
    // The client's own 'error' (a rejoin after a failed heartbeat failed, e.g. `Connection closed`
    // when the group's coordinator is lost): unheard it would be an uncaught exception that ends
    // the node. The stream ends and #run reads again from the committed offsets.
    let failure: Error | undefined;
    consumer.on('error', (err: Error) => {
      failure ??= err;
      void this.#stream?.close().catch(() => {});
    });
    const stream = await consumer.consume({
      topics: [this.#alertsTopic],
      mode: 'committed',
      fallbackMode: 'earliest',
      autocommit: false,
      maxWaitTime: 500,
    });
    this.#stream = stream;
    const stopped = this.#stopped.signal;
    if (stopped.aborted) return;
    if (failure) throw failure;
    const closeStream = () => void stream.close().catch(() => {});
    stopped.addEventListener('abort', closeStream, { once: true });
    let idle = false;
    const timer = setInterval(() => {
      void this.#commit();
      // every notifier disabled: the stream closes; #run follows the end instead (#followEnd)
      if (!idle && !this.#anyEnabled()) {
        idle = true;
        closeStream();
      }
    }, commitEveryMs);
    try {
      for await (const message of stream) {
        if (this.#stopped.signal.aborted || idle) break;
        this.#admit(message);
        while (this.#ledger.inFlight >= this.#maxInFlight && !this.#stopped.signal.aborted)
          await new Promise<void>((resolve) => (this.#capacity = resolve));
      }
    } finally {
      stopped.removeEventListener('abort', closeStream);
      clearInterval(timer);
      await this.#commit();
      if (idle) this.#forgetAll();
    }
    if (failure && !this.#stopped.signal.aborted) throw failure;
    if (!this.#stopped.signal.aborted && !idle) throw new Error('the alerts stream ended');
  }

  async #close(): Promise<void> {
    const stream = this.#stream;
    const consumer = this.#consumer;
    this.#stream = undefined;
    this.#consumer = undefined;
    await stream?.close().catch(() => {});
    await consumer?.close(true).catch(() => {});
    if (this.#stopped.signal.aborted) {
      await this.#producer?.close().catch(() => {});
      this.#producer = undefined;
    }
  }

  async #ensureDeadLetterTopic(connection: ReturnType<typeof kafkaConnection>): Promise<void> {
    const admin = new Admin({ ...connection, clientId: `${this.#o.clientId}-admin` });
    try {
      if ((await admin.listTopics()).includes(this.#dlqTopic)) return;
      const replication = await internalReplication(admin);
      await admin
        .createTopics({
          topics: [this.#dlqTopic],
          partitions: -1,
          replicas: replication.replicas,
          configs: [...replication.configs],
        })
        .catch((err: unknown) => {
          if (!isTopicAlreadyExists(err)) throw err;
        });
    } finally {
      await admin.close().catch(() => {});
    }
  }

  /** A new assignment: partitions lost are forgotten and their deliveries aborted (their next owner delivers them). */
  #assignmentChanged(): void {
    const assigned = new Set<string>();
    for (const a of this.#consumer?.assignments ?? [])
      for (const p of a.partitions) assigned.add(partitionKey(a.topic, p));
    for (const key of this.#ledger.retainOnly(assigned)) {
      this.#partitionAborts.get(key)?.abort(new Error('the partition moved to another node'));
      this.#partitionAborts.delete(key);
      this.#toCommit.delete(key);
    }
    this.#capacity?.();
  }

  /** Every notifier disabled: the deliveries in flight end (to notifiers now off) and nothing read is kept. */
  #forgetAll(): void {
    this.#ledger.retainOnly(new Set());
    for (const abort of this.#partitionAborts.values()) abort.abort(new Error('every notifier is disabled'));
    this.#partitionAborts.clear();
    this.#toCommit.clear();
    this.#capacity?.();
  }

  #warnOnce(reason: string): void {
    if (this.#warned.has(reason)) return;
    this.#warned.add(reason);
    this.#o.log.warn(`notifications: alerts-topic records skipped: ${reason} (said once)`);
  }

  #admit(message: Message<Buffer, Buffer, Buffer, Buffer>): void {
    const { topic, partition, offset } = message;
    // no notifier enabled: nothing to match, so the record is not parsed (the alert store reads every alert too)
    if (!this.#o.notifiers().some((n) => n.enabled)) {
      this.#ledger.admit(topic, partition, offset, 0);
      return;
    }
    let value: unknown;
    try {
      value = message.value === undefined || message.value === null ? null : JSON.parse(message.value.toString('utf8'));
    } catch {
      value = undefined;
    }
    const alert = value === undefined ? 'the record is not JSON' : readAlert(value);
    if (typeof alert === 'string') {
      this.#warnOnce(alert);
      this.#ledger.admit(topic, partition, offset, 0);
      return;
    }
    const now = Date.now();
    const targets = this.#isSilenced(alert, now)
      ? []
      : this.#o.notifiers().filter((n) => n.enabled && matcherHolds(n.matcher, alert));
    if (!this.#ledger.admit(topic, partition, offset, targets.length)) return;
    if (targets.length === 0) return;
    const key = partitionKey(topic, partition);
    let abort = this.#partitionAborts.get(key);
    if (!abort) this.#partitionAborts.set(key, (abort = new AbortController()));
    const signal = AbortSignal.any([this.#stopped.signal, abort.signal]);
    for (const notifier of targets)
      void this.#deliver(notifier, alert, signal).then(
        () => {
          this.#ledger.settle(topic, partition, offset);
          this.#capacity?.();
        },
        () => {}, // aborted: not settled, so not committed; delivered again by the partition's next reader
      );
  }

  #limiter(notifier: StoredNotifier): RateLimiter {
    let limiter = this.#limiters.get(notifier.id);
    if (!limiter) this.#limiters.set(notifier.id, (limiter = new RateLimiter(notifier.rateLimitPerMinute, Date.now())));
    else limiter.perMinute = notifier.rateLimitPerMinute;
    return limiter;
  }

  async #deliver(notifier: StoredNotifier, alert: NotifiedAlert, signal: AbortSignal): Promise<void> {
    const limiter = this.#limiter(notifier);
    const target: DeliveryTarget = {
      id: notifier.id,
      url: notifier.url,
      secret: notifier.secret,
      ca:
        notifier.caCertificate === undefined
          ? this.#extraCa
          : [...(this.#extraCa ?? rootCertificates), notifier.caCertificate],
    };
    const ports: DeliveryPorts = {
      post: postWebhook,
      sleep,
      now: Date.now,
      rateLimit: () => limiter.take(Date.now()),
      retried: () => this.#o.metrics.count(metricNames.notificationsRetried, [notifier.id]),
    };
    const result = await deliver(target, alert, this.#policy, ports, signal);
    if (result.sent) {
      this.#o.metrics.count(metricNames.notificationsSent, [notifier.id]);
      return;
    }
    await this.#deadLetter(notifier.id, alert, result.attempts, result.lastError, signal);
    this.#o.metrics.count(metricNames.notificationsDeadLettered, [notifier.id]);
    this.#o.log.warn(
      `notifications: alert ${alert.id} to notifier ${notifier.id} given up after ${result.attempts} attempt(s) (${result.lastError}); written to ${this.#dlqTopic}`,
    );
  }

  /** Writes the dead letter; a failed write is tried again (every 5 s) until it succeeds or the delivery is aborted. */
  async #deadLetter(
    notifier: string,
    alert: NotifiedAlert,
    attempts: number,
    lastError: string,
    signal: AbortSignal,
  ): Promise<void> {
    const value = Buffer.from(
      JSON.stringify({
        notifier,
        delivery: deliveryId(notifier, alert.id),
        alertId: alert.id,
        attempts,
        lastError,
        failedAt: new Date().toISOString(),
        alert: alert.record,
      }),
    );
    for (;;) {
      signal.throwIfAborted();
      try {
        if (!this.#producer) throw new Error('the dead-letter producer is closed');
        await this.#producer.send({ messages: [{ topic: this.#dlqTopic, key: Buffer.from(alert.id), value }] });
        return;
      } catch (err) {
        if (signal.aborted) throw err;
        this.#o.log.warn(`notifications: dead letter not written (${describeError(err)}); trying again in 5 s`);
        await sleep(restartDelayMs, signal);
      }
    }
  }

  /** Commits the offsets the ledger allows (one OffsetCommit at a time); a refused commit is tried again. */
  #commit(): Promise<void> {
    if (this.#committing) return this.#committing;
    for (const c of this.#ledger.takeCommits()) this.#toCommit.set(partitionKey(c.topic, c.partition), c);
    const consumer = this.#consumer;
    if (this.#toCommit.size === 0 || !consumer) return Promise.resolve();
    const batch = [...this.#toCommit.entries()];
    this.#committing = consumer
      .commit({ offsets: batch.map(([, c]) => ({ ...c, leaderEpoch: -1 })) })
      .then(() => {
        for (const [key, c] of batch) if (this.#toCommit.get(key)?.offset === c.offset) this.#toCommit.delete(key);
      })
      .catch((err: unknown) => {
        if (!this.#stopped.signal.aborted) this.#o.log.info(`notifications: commit refused (${describeError(err)})`);
      })
      .finally(() => (this.#committing = undefined));
    return this.#committing;
  }
}
