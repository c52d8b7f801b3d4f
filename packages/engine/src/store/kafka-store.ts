import { randomUUID } from 'node:crypto';
import { Consumer, Producer, type ClusterMetadata, type FetchOptions, type RecordsBatch } from '@platformatic/kafka';

type FetchRequestTopic = FetchOptions<Buffer, Buffer, Buffer, Buffer>['topics'][number];
import type { Settings } from '../config/settings.ts';
import { kafkaConnection } from '../kafka/client-options.ts';
import { visitRecords } from '../kafka/record-batches.ts';
import { describeError, ensureWeirTopics } from '../kafka/weir-topic-setup.ts';
import { auditTopicName, versionsTopicName, weirTopicNames, type WeirTopic } from '../kafka/weir-topics.ts';
import { SerialQueue } from '../core/serial-queue.ts';
import {
  auditMatches,
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
  type AuditRecord,
  type ChangeListener,
  type Collection,
  type ConfigStore,
  type VersionEntry,
  type VersionRecord,
  type WriteExtras,
} from './config-store.ts';

/** Where each collection lives. Users and the token secret share `<prefix>_users` (see recordKey). */
const topicOf: Record<Collection, WeirTopic> = {
  meta: 'users',
  users: 'users',
  tasks: 'tasks',
  pipelines: 'pipelines',
  topologies: 'topologies',
  rules: 'rules',
  lookups: 'lookups',
  nodes: 'nodes',
  silences: 'silences',
  notifiers: 'notifiers',
};

/**
 * Record keys: the id itself, except in `<prefix>_users`, where users are keyed by username and node-wide
 * settings (the token secret) by `meta:<name>`; usernames cannot contain `:`, so the two never meet.
 */
export function recordKey(collection: Collection, id: string): string {
  return collection === 'meta' ? `meta:${id}` : id;
}

export function collectionOfKey(topic: WeirTopic, key: string): [Collection, string] | undefined {
  if (topic === 'users') return key.startsWith('meta:') ? ['meta', key.slice(5)] : ['users', key];
  const collection = (Object.keys(topicOf) as Collection[]).find((c) => c !== 'meta' && topicOf[c] === topic);
  return collection ? [collection, key] : undefined;
}

const fetchWaitMs = 200;
const readBackTimeoutMs = 30_000;
const transactionTimeoutMs = 15_000;
const compressedCollections: ReadonlySet<Collection> = new Set(['lookups']);

interface Waiter {
  readonly topic: string;
  readonly offset: bigint;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * `weir.config.store=kafka`: the compacted topics `<prefix>_nodes … <prefix>_users` (architecture: Stores),
 * one partition each. Every node reads them from the start into memory (key = id, JSON value,
 * null value = delete) and keeps tailing them; a write resolves once this node has read it back, so
 * a node always reads its own writes. Every write is one Kafka transaction holding the records and
 * their audit entries (on `<prefix>_audit`, read back the same way and kept in memory for
 * `weir.audit.retention-days`); the store reads committed records only, so a change and its audit
 * entries are seen together or not at all. The versions of rules, tasks, pipelines and topologies go to
 * `<prefix>_versions` in the same transaction, one unique key each; every node numbers a record's
 * versions in that topic's order, so all nodes agree on the numbers and two nodes writing the same
 * record at once never take the same number.
 */
export class KafkaConfigStore implements ConfigStore {
  readonly #names: Record<WeirTopic, string>;
  readonly #topicByName: Map<string, WeirTopic>;
  #producer: Producer;
  readonly #newProducer: () => Producer;
  readonly #consumer: Consumer;
  readonly #data = new Map<Collection, Map<string, unknown>>();
  /** Next offset to read per topic name. */
  readonly #position = new Map<string, bigint>();
  readonly #listeners = new Set<ChangeListener>();
  readonly #waiters = new Set<Waiter>();
  readonly #onError: (err: Error) => void;
  readonly #auditTopic: string;
  readonly #audit: AuditRecord[] = [];
  readonly #auditRetentionMs: number;
  readonly #versionsTopic: string;
  /** Per `<collection>\u0000<id>`: the record's versions in the versions topic's order. */
  readonly #versions = new Map<string, VersionRecord[]>();
  /** A transactional producer runs one transaction at a time. */
  readonly #writes = new SerialQueue();
  /** Whether the last metadata showed the audit topic (a send to a missing topic would never end). */
  #auditTopicPresent = true;
  #versionsTopicPresent = true;
  #closed = false;
  #loop: Promise<void> | undefined;

  private constructor(settings: Settings, clientId: string, onError: (err: Error) => void) {
    this.#names = weirTopicNames(settings.get('weir.topic.prefix'));
    this.#topicByName = new Map(
      Object.entries(this.#names)
        .filter(([t]) => t !== 'alerts')
        .map(([t, n]) => [n, t as WeirTopic]),
    );
    const connection = kafkaConnection(settings, clientId);
    // producerId/epoch -1: a fresh InitProducerId (as the stream workers do); 0/0 would be read as an
    // older incarnation of the same transactional id and fenced after a restart.
    this.#newProducer = () =>
      new Producer({
        ...connection,
        acks: -1,
        idempotent: true,
        transactionalId: clientId,
        producerId: -1n,
        producerEpoch: -1,
      });
    this.#producer = this.#newProducer();
    // The consumer never joins its group: it only fetches, from offset 0, every partition-0 of the topics.
    this.#consumer = new Consumer({ ...connection, groupId: `${clientId}-unused` });
    this.#onError = onError;
    this.#auditTopic = auditTopicName(settings.get('weir.topic.prefix'));
    this.#auditRetentionMs = settings.get('weir.audit.retention-days') * 24 * 3600 * 1000;
    this.#versionsTopic = versionsTopicName(settings.get('weir.topic.prefix'));
    for (const name of this.#fetchedTopics) this.#position.set(name, 0n);
  }

  /** Creates the topics when missing, reads them to their current end, then keeps tailing them. */
  static async open(
    settings: Settings,
    clientId: string,
    onError: (err: Error) => void = () => {},
  ): Promise<KafkaConfigStore> {
    await ensureWeirTopics(settings, `${clientId}-admin`, true);
    const store = new KafkaConfigStore(settings, clientId, onError);
    try {
      const topics = store.#fetchedTopics;
      store.#consumer.topics.trackAll(...topics);
      const ends = await store.#consumer.listOffsets({ topics });
      store.#loop = store.#run();
      await Promise.all(
        topics.map((topic) => {
          const end = ends.get(topic)?.[0] ?? 0n;
          return end > 0n ? store.#waitFor(topic, end - 1n) : undefined;
        }),
      );
      return store;
    } catch (err) {
      await store.close();
      throw err;
    }
  }

  get<T>(collection: Collection, id: string): T | undefined {
    return this.#data.get(collection)?.get(id) as T | undefined;
  }

  list<T>(collection: Collection): T[] {
    return [...(this.#data.get(collection)?.values() ?? [])] as T[];
  }

  /** Encoded again from the records held (this store keeps them parsed). */
  listJson(collection: Collection): Uint8Array[] {
    return this.list(collection).map((value) => Buffer.from(JSON.stringify(value)));
  }

  async put(collection: Collection, id: string, value: unknown, extras: WriteExtras = {}): Promise<void> {
    await this.putMany(collection, [[id, value]], extras);
  }

  async putMany(
    collection: Collection,
    entries: readonly (readonly [string, unknown])[],
    extras: WriteExtras = {},
  ): Promise<void> {
    if (entries.length === 0) return;
    await this.#write(
      collection,
      entries.map(([id, value]) => [id, Buffer.from(JSON.stringify(value))]),
      extras,
    );
  }

  async delete(collection: Collection, id: string, extras: WriteExtras = {}): Promise<boolean> {
    if (!this.#data.get(collection)?.has(id)) return false;
    await this.#write(collection, [[id, null]], extras);
    return true;
  }

  async appendAudit(entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.#write(undefined, [], { audit: entries });
  }

  versions(collection: Collection, id: string): readonly VersionRecord[] {
    return this.#versions.get(`${collection}\u0000${id}`) ?? [];
  }

  queryAudit(query: AuditQuery): AuditPage {
    const cutoff = Date.now() - this.#auditRetentionMs;
    let total = 0;
    const entries: AuditRecord[] = [];
    for (let i = this.#audit.length - 1; i >= 0; i--) {
      const entry = this.#audit[i]!;
      if (entry.time < cutoff || !auditMatches(entry, query)) continue;
      if (total >= query.offset && entries.length < query.limit) entries.push(entry);
      total++;
    }
    return { total, entries };
  }

  get #fetchedTopics(): string[] {
    return [...this.#topicByName.keys(), this.#auditTopic, this.#versionsTopic];
  }

  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const waiter of this.#waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('the config store was closed'));
    }
    this.#waiters.clear();
    await this.#loop?.catch(() => {});
    await Promise.allSettled([this.#producer.close(), this.#consumer.close(true)]);
  }

  /** One transaction: the records of `collection`, the audit entries and the versions; resolves once all are read back. */
  #write(
    collection: Collection | undefined,
    entries: readonly (readonly [string, Buffer | null])[],
    { audit = [], versions = [] }: WriteExtras,
  ): Promise<void> {
    return this.#writes.run(async () => {
      if (this.#closed) throw new Error('the config store is closed');
      if (!this.#auditTopicPresent)
        throw new Error(`the audit topic ${this.#auditTopic} does not exist; restart the node to create it`);
      if (versions.length > 0 && !this.#versionsTopicPresent)
        throw new Error(`the versions topic ${this.#versionsTopic} does not exist; restart the node to create it`);
      const topic = collection === undefined ? undefined : this.#names[topicOf[collection]];
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the write was not acknowledged within ${transactionTimeoutMs} ms`)),
          transactionTimeoutMs,
        );
      });
      let base: bigint | undefined;
      let auditBase: bigint | undefined;
      let versionsBase: bigint | undefined;
      try {
        const tx = await Promise.race([this.#producer.beginTransaction(), timeout]);
        if (topic !== undefined && collection !== undefined) {
          const result = await Promise.race([
            tx.send({
              messages: entries.map(([id, value]) => ({
                topic,
                partition: 0,
                key: Buffer.from(recordKey(collection, id)),
                value: value ?? undefined,
              })),
              ...(compressedCollections.has(collection) ? { compression: 'gzip' as const } : {}),
            }),
            timeout,
          ]);
          base = result.offsets?.find((o) => o.topic === topic)?.offset;
          if (base === undefined) throw new Error(`no offset returned for the write to ${topic}`);
        }
        if (audit.length > 0) {
          const result = await Promise.race([
            tx.send({
              messages: audit.map((entry) => ({
                topic: this.#auditTopic,
                partition: 0,
                value: Buffer.from(JSON.stringify(entry)),
              })),
            }),
            timeout,
          ]);
          auditBase = result.offsets?.find((o) => o.topic === this.#auditTopic)?.offset;
          if (auditBase === undefined) throw new Error(`no offset returned for the write to ${this.#auditTopic}`);
        }
        if (versions.length > 0 && collection !== undefined) {
          const result = await Promise.race([
            tx.send({
              messages: versions.map((entry) => ({
                topic: this.#versionsTopic,
                partition: 0,
                key: Buffer.from(`${collection}/${entry.id}/${randomUUID()}`),
                value: Buffer.from(JSON.stringify({ collection, ...entry })),
              })),
            }),
            timeout,
          ]);
          versionsBase = result.offsets?.find((o) => o.topic === this.#versionsTopic)?.offset;
          if (versionsBase === undefined) throw new Error(`no offset returned for the write to ${this.#versionsTopic}`);
        }
        await Promise.race([tx.commit(), timeout]);
      } catch (err) {
        // Whatever state the transaction is in, a new producer with the same transactional id fences
        // it off (the broker aborts it), so the next write starts clean.
        const stale = this.#producer;
        this.#producer = this.#newProducer();
        void stale.close(true).catch(() => {});
        throw err;
      } finally {
        clearTimeout(timer);
      }
      await Promise.all([
        topic !== undefined && base !== undefined
          ? this.#waitFor(topic, base + BigInt(entries.length) - 1n)
          : undefined,
        auditBase !== undefined ? this.#waitFor(this.#auditTopic, auditBase + BigInt(audit.length) - 1n) : undefined,
        versionsBase !== undefined
          ? this.#waitFor(this.#versionsTopic, versionsBase + BigInt(versions.length) - 1n)
          : undefined,
      ]);
    });
  }

  /** Resolves once the record at `offset` of `topic` has been applied to this node's view. */
  #waitFor(topic: string, offset: bigint): Promise<void> {
    if ((this.#position.get(topic) ?? 0n) > offset) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        topic,
        offset,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          reject(
            new Error(`the config store did not read back offset ${offset} of ${topic} within ${readBackTimeoutMs} ms`),
          );
        }, readBackTimeoutMs),
      };
      this.#waiters.add(waiter);
    });
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#closed) {
      try {
        const metadata = await this.#consumer.metadata({ topics: this.#fetchedTopics, forceUpdate: failures > 0 });
        const nameById = new Map([...metadata.topics].map(([name, t]) => [t.id, name]));
        this.#auditTopicPresent = metadata.topics.get(this.#auditTopic)?.partitions[0] !== undefined;
        this.#versionsTopicPresent = metadata.topics.get(this.#versionsTopic)?.partitions[0] !== undefined;
        await Promise.all(
          [...this.#requestsByLeader(metadata)].map(([node, topics]) => this.#fetchOnce(node, topics, nameById)),
        );
        failures = 0;
      } catch (err) {
        if (this.#closed) return;
        failures++;
        if (failures === 1 || failures % 50 === 0)
          this.#onError(new Error(`config store: reading the config topics failed: ${describeError(err)}`));
        await new Promise((r) => setTimeout(r, Math.min(100 * failures, 2000)));
      }
    }
  }

  #requestsByLeader(metadata: ClusterMetadata): Map<number, FetchRequestTopic[]> {
    const byNode = new Map<number, FetchRequestTopic[]>();
    for (const name of this.#fetchedTopics) {
      const topic = metadata.topics.get(name);
      const partition = topic?.partitions[0];
      // A missing audit or versions topic must not stop the configuration from being read (writes fail instead).
      if ((!topic || !partition) && (name === this.#auditTopic || name === this.#versionsTopic)) continue;
      if (!topic || !partition) throw new Error(`topic ${name} has no metadata yet`);
      const requests = byNode.get(partition.leader) ?? [];
      requests.push({
        topicId: topic.id,
        partitions: [
          {
            partition: 0,
            fetchOffset: this.#position.get(name)!,
            partitionMaxBytes: 128 * 1024 * 1024,
            currentLeaderEpoch: -1,
            lastFetchedEpoch: -1,
          },
        ],
      });
      byNode.set(partition.leader, requests);
    }
    return byNode;
  }

  async #fetchOnce(node: number, topics: FetchRequestTopic[], nameById: ReadonlyMap<string, string>): Promise<void> {
    const response = await this.#consumer.fetch({
      node,
      topics,
      maxWaitTime: fetchWaitMs,
      minBytes: 1,
      maxBytes: 128 * 1024 * 1024,
    });
    if (this.#closed) return;
    for (const topicResponse of response.responses) {
      const name = nameById.get(topicResponse.topicId);
      const topic =
        name === undefined
          ? undefined
          : name === this.#auditTopic
            ? ('audit' as const)
            : name === this.#versionsTopic
              ? ('versions' as const)
              : this.#topicByName.get(name);
      if (name === undefined || topic === undefined) continue;
      for (const partition of topicResponse.partitions) {
        if (partition.partitionIndex !== 0) continue;
        if (partition.errorCode !== 0)
          throw new Error(`fetch of ${name} failed with Kafka error code ${partition.errorCode}`);
        this.#apply(name, topic, partition.records ?? []);
      }
    }
  }

  #apply(name: string, topic: WeirTopic | 'audit' | 'versions', batches: readonly RecordsBatch[]): void {
    const position = visitRecords(batches, this.#position.get(name)!, (offset, record) => {
      if (topic === 'audit') this.#applyAudit(offset, record.value);
      else if (topic === 'versions') this.#applyVersion(offset, record.value);
      else if (record.key) this.#applyRecord(topic, record.key.toString('utf8'), record.value);
    });
    this.#position.set(name, position);
    for (const waiter of this.#waiters) {
      if (waiter.topic === name && position > waiter.offset) {
        clearTimeout(waiter.timer);
        this.#waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  #applyAudit(offset: bigint, value: Buffer | null): void {
    if (!value) return;
    try {
      const entry = JSON.parse(value.toString('utf8')) as AuditEntry;
      if (entry.time < Date.now() - this.#auditRetentionMs) return;
      this.#audit.push({ seq: Number(offset), ...entry });
    } catch {
      this.#onError(new Error(`config store: skipped audit record ${offset}: its value is not JSON`));
    }
    // Entries past the retention fall off the front (they are in time order).
    if (this.#audit.length % 1024 === 0) {
      const cutoff = Date.now() - this.#auditRetentionMs;
      const keep = this.#audit.findIndex((e) => e.time >= cutoff);
      if (keep > 0) this.#audit.splice(0, keep);
    }
  }

  #applyVersion(offset: bigint, value: Buffer | null): void {
    if (!value) return;
    let entry: VersionEntry & { collection: Collection };
    try {
      entry = JSON.parse(value.toString('utf8')) as VersionEntry & { collection: Collection };
    } catch {
      this.#onError(new Error(`config store: skipped version record ${offset}: its value is not JSON`));
      return;
    }
    const { collection, ...version } = entry;
    const key = `${collection}\u0000${version.id}`;
    let versions = this.#versions.get(key);
    if (!versions) this.#versions.set(key, (versions = []));
    versions.push({ ...version, version: versions.length + 1 });
  }

  #applyRecord(topic: WeirTopic, key: string, value: Buffer | null): void {
    const target = collectionOfKey(topic, key);
    if (!target) return;
    const [collection, id] = target;
    let records = this.#data.get(collection);
    if (!records) this.#data.set(collection, (records = new Map()));
    let parsed: unknown;
    if (value === null || value.length === 0) {
      if (!records.delete(id)) return;
      parsed = undefined;
    } else {
      try {
        parsed = JSON.parse(value.toString('utf8'));
      } catch {
        this.#onError(new Error(`config store: skipped record '${key}' of ${topic}: its value is not JSON`));
        return;
      }
      records.set(id, parsed);
    }
    for (const listener of this.#listeners) listener(collection, id, parsed);
  }
}
