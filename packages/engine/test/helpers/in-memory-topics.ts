import type { ConsumeRequest, ConsumedMessage } from '../../src/kafka/consume-sessions.ts';
import { deserialize } from '../../src/kafka/serde-codecs.ts';
import type { StartPosition } from '../../src/kafka/start-position.ts';
import type { OpenTail, TopicPorts } from '../../src/kafka/topic-clients.ts';
import type { RecordToProduce } from '../../src/kafka/topic-producer.ts';
import type { TopicSpec } from '../../src/kafka/topic-spec.ts';
import { DetailRefusal, type PartitionDetail, type TopicSetting } from '../../src/kafka/topic-details.ts';
import { InMemoryGroups } from './in-memory-groups.ts';
import type { TailRequest, TailSink } from '../../src/kafka/topic-tails.ts';

interface StoredRecord extends RecordToProduce {
  readonly partition: number;
  readonly offset: number;
  readonly timestamp: number;
}

interface Reader {
  readonly topic: string;
  readonly keyType: ConsumeRequest['keyType'];
  readonly valueType: ConsumeRequest['valueType'];
  readonly start: StartPosition;
  /** Takes one message; false when the reader wants no more. */
  take(m: ConsumedMessage): boolean;
}

/** The broker's refusal as @platformatic/kafka reports it (a protocol error id and the broker's words). */
function refusal(apiId: string, serverErrorMessage: string): Error {
  return Object.assign(new Error(`Received response with error while executing API`), { apiId, serverErrorMessage });
}

/** The settings the in-memory topics know (any other name is refused as the broker does). */
const topicDefaults: Readonly<Record<string, string>> = {
  'cleanup.policy': 'delete',
  'max.message.bytes': '1048588',
  'min.insync.replicas': '1',
  'retention.bytes': '-1',
  'retention.ms': '604800000',
  'segment.bytes': '1073741824',
};

/**
 * Topics in memory behind the topic endpoints' ports (src/kafka/topic-clients.ts), for the route
 * unit tests: create, describe, delete, produce (every record to partition 0, offsets from 0,
 * timestamps of the produce), consume sessions (one per user and topic, `maxEvents` then
 * COMPLETED), tails, the topic in depth (settings from a small table of defaults, added
 * partitions, purges) and consumer groups (helpers/in-memory-groups.ts). Kafka's own behaviour is the integration tests' concern (a real broker).
 */
export class InMemoryTopics implements TopicPorts {
  readonly bootstrap = 'in-memory:9092';
  readonly #topics = new Map<string, { spec: TopicSpec; records: StoredRecord[]; low: Map<number, number> }>();
  readonly #readers = new Set<Reader>();
  readonly #sessions = new Map<string, { status: string; messages: ConsumedMessage[]; reader: Reader }>();
  /** When set, every call fails as an unreachable cluster does (the 503 paths). */
  unreachable = false;

  #check(): void {
    if (this.unreachable)
      throw Object.assign(new Error('Connection to in-memory:9092 refused'), { code: 'PLT_KFK_NETWORK' });
  }

  readonly admin: TopicPorts['admin'] = {
    list: async () => {
      this.#check();
      return [...this.#topics.keys()].sort();
    },
    exists: async (name) => {
      this.#check();
      return this.#topics.has(name);
    },
    describe: async (name) => {
      this.#check();
      return this.#topics.get(name)?.spec;
    },
    create: async (spec) => {
      this.#check();
      if (this.#topics.has(spec.name)) throw refusal('TOPIC_ALREADY_EXISTS', `Topic '${spec.name}' already exists.`);
      const stored = { ...spec, options: Object.fromEntries(Object.entries(spec.options).sort()) };
      this.#topics.set(spec.name, { spec: stored, records: [], low: new Map() });
      return stored;
    },
    delete: async (name) => {
      this.#check();
      return this.#topics.delete(name);
    },
    ping: async () => this.#check(),
  };

  /** Offsets of a partition: low (after purges) and high (records written to it). */
  #range(topic: string, partition: number): { low: number; high: number } {
    const t = this.#topics.get(topic)!;
    const high = t.records.filter((r) => r.partition === partition).length;
    return { low: Math.min(t.low.get(partition) ?? 0, high), high };
  }

  /** The end offset of every partition of a topic (undefined when the topic does not exist). */
  endOffsets(topic: string): number[] | undefined {
    const t = this.#topics.get(topic);
    return t && Array.from({ length: t.spec.numberOfPartitions }, (_, p) => this.#range(topic, p).high);
  }

  readonly details: TopicPorts['details'] = {
    partitions: async (name) => {
      this.#check();
      const t = this.#topics.get(name);
      if (!t) return undefined;
      const replicas = Array.from({ length: t.spec.replicationFactor }, (_, i) => i + 1);
      const partitions = Array.from({ length: t.spec.numberOfPartitions }, (_, partition): PartitionDetail => {
        const { low, high } = this.#range(name, partition);
        const kept = t.records.filter((r) => r.partition === partition && r.offset >= low);
        return {
          partition,
          leader: 1,
          replicas,
          inSyncReplicas: replicas,
          lowOffset: low,
          highOffset: high,
          messages: high - low,
          sizeBytes: kept.reduce((sum, r) => sum + (r.key?.length ?? 0) + (r.value?.length ?? 0), 0),
        };
      });
      return {
        name,
        partitions,
        messages: partitions.reduce((s, p) => s + p.messages, 0),
        sizeBytes: partitions.reduce((s, p) => s + p.sizeBytes, 0),
      };
    },
    settings: async (name) => {
      this.#check();
      const t = this.#topics.get(name);
      if (!t) return undefined;
      const own = t.spec.options;
      return Object.keys({ ...topicDefaults, ...own })
        .sort()
        .map((key): TopicSetting => ({
          name: key,
          value: own[key] ?? topicDefaults[key] ?? null,
          source: key in own ? 'DYNAMIC_TOPIC_CONFIG' : 'DEFAULT_CONFIG',
          changed: key in own,
          readOnly: false,
          sensitive: false,
        }));
    },
    changeSettings: async (name, change) => {
      this.#check();
      const t = this.#topics.get(name)!;
      const unknown = [...Object.keys(change.set), ...change.reset].find((key) => !(key in topicDefaults));
      if (unknown !== undefined) throw refusal('INVALID_CONFIG', `Unknown topic config name: ${unknown}`);
      const options = { ...t.spec.options, ...change.set };
      for (const key of change.reset) delete options[key];
      t.spec = { ...t.spec, options: Object.fromEntries(Object.entries(options).sort()) };
    },
    addPartitions: async (name, count) => {
      this.#check();
      const t = this.#topics.get(name)!;
      t.spec = { ...t.spec, numberOfPartitions: count };
    },
    purge: async (name, limit) => {
      this.#check();
      const t = this.#topics.get(name)!;
      const targets = new Map<number, number>();
      for (let p = 0; p < t.spec.numberOfPartitions; p++) {
        const { high } = this.#range(name, p);
        if (limit.kind === 'offsets') {
          const offset = limit.offsets.get(p);
          if (offset === undefined) continue;
          if (offset > high)
            throw new DetailRefusal(
              `body.offsets.${p}: ${offset} is beyond the end of partition ${p} (high offset ${high})`,
            );
          targets.set(p, offset);
        } else {
          const first = t.records.find((r) => r.partition === p && r.timestamp >= limit.timestamp);
          targets.set(p, first?.offset ?? high);
        }
      }
      for (const p of limit.kind === 'offsets' ? limit.offsets.keys() : [])
        if (p >= t.spec.numberOfPartitions)
          throw new DetailRefusal(
            `body.offsets.${p}: topic ${name} has no partition ${p} (it has ${t.spec.numberOfPartitions})`,
          );
      for (const [p, offset] of targets) t.low.set(p, Math.max(t.low.get(p) ?? 0, offset));
      return new Map([...targets.keys()].map((p) => [p, this.#range(name, p).low]));
    },
  };

  /** Consumer groups over these topics; tests add groups with `groups.add`. */
  readonly groups = new InMemoryGroups(
    (topic) => this.endOffsets(topic),
    () => this.#check(),
  );

  readonly producer: TopicPorts['producer'] = {
    send: async (topic, records) => {
      this.#check();
      const t = this.#topics.get(topic);
      if (!t) throw refusal('UNKNOWN_TOPIC_OR_PARTITION', `This server does not host this topic-partition.`);
      return records.map((r) => {
        const stored: StoredRecord = { ...r, partition: 0, offset: t.records.length, timestamp: Date.now() };
        t.records.push(stored);
        for (const reader of this.#readers) if (reader.topic === topic) this.#deliver(reader, stored);
        return { partition: 0, offset: stored.offset };
      });
    },
  };

  readonly consumers: TopicPorts['consumers'] = {
    open: (username, topic, request) => this.#open(username, topic, request),
    read: (username, topic, index) => {
      const session = this.#sessions.get(`${username}\u0000${topic}`);
      return session && { status: session.status, messages: session.messages.slice(index) };
    },
    size: 0,
  };

  /** One consume session per user and topic (a new one replaces it): `maxEvents` or the timeout complete it. */
  async #open(username: string, topic: string, request: ConsumeRequest): Promise<void> {
    this.#check();
    const id = `${username}\u0000${topic}`;
    const old = this.#sessions.get(id);
    if (old) this.#readers.delete(old.reader);
    const messages: ConsumedMessage[] = [];
    const session = {
      status: 'RUNNING',
      messages,
      reader: {
        topic,
        ...request,
        take: (m: ConsumedMessage) => {
          messages.push(m);
          if (messages.length < request.maxEvents) return true;
          complete();
          return false;
        },
      },
    };
    const complete = () => {
      if (session.status === 'RUNNING') session.status = 'COMPLETED';
      this.#readers.delete(session.reader);
    };
    this.#sessions.set(id, session);
    (this.consumers as { size: number }).size = this.#sessions.size;
    setTimeout(complete, request.maxTimeoutSeconds * 1000).unref();
    this.#attach(session.reader);
    // The stored records were delivered at once: a read to the end is done.
    if (request.untilEnd) complete();
  }

  readonly tails: TopicPorts['tails'] = {
    open: async (_username: string, topic: string, request: TailRequest, sink: TailSink): Promise<OpenTail> => {
      this.#check();
      let closed = false;
      const reader: Reader = { topic, ...request, take: (m) => (closed ? false : (sink.message(m), true)) };
      const tail: OpenTail = {
        resume: () => {},
        close: async (reason) => {
          if (closed) return;
          closed = true;
          this.#readers.delete(reader);
          sink.end(reason);
        },
      };
      // Messages already stored go out after the endpoint has answered (as a consumer's first fetch).
      setImmediate(() => this.#attach(reader));
      return tail;
    },
  };

  /** Sends the stored records the reader's start position covers, then keeps it for new ones. */
  #attach(reader: Reader): void {
    const records = this.#topics.get(reader.topic)?.records ?? [];
    const { start } = reader;
    const from = (r: StoredRecord) =>
      start.kind === 'earliest' ||
      (start.kind === 'offset' && r.offset >= start.offset) ||
      (start.kind === 'timestamp' && r.timestamp >= start.timestamp);
    for (const r of records) if (from(r) && !this.#deliver(reader, r)) return;
    this.#readers.add(reader);
  }

  #deliver(reader: Reader, r: StoredRecord): boolean {
    if (reader.start.partition !== undefined && reader.start.partition !== r.partition) return true;
    const m: ConsumedMessage = {
      key: deserialize(reader.keyType, r.key),
      value: deserialize(reader.valueType, r.value),
      partition: r.partition,
      offset: r.offset,
      timestamp: r.timestamp,
      ...(r.headers ? { headers: { ...r.headers } } : {}),
    };
    const more = reader.take(m);
    if (!more) this.#readers.delete(reader);
    return more;
  }

  async close(): Promise<void> {
    this.#readers.clear();
    this.#sessions.clear();
  }
}
