import type { ConsumeRequest, ConsumedMessage } from '../../src/kafka/consume-sessions.ts';
import { deserialize } from '../../src/kafka/serde-codecs.ts';
import type { StartPosition } from '../../src/kafka/start-position.ts';
import type { OpenTail, TopicPorts } from '../../src/kafka/topic-clients.ts';
import type { RecordToProduce } from '../../src/kafka/topic-producer.ts';
import type { TopicSpec } from '../../src/kafka/topic-spec.ts';
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

/**
 * Topics in memory behind the topic endpoints' ports (src/kafka/topic-clients.ts), for the route
 * unit tests: create, describe, delete, produce (every record to partition 0, offsets from 0,
 * timestamps of the produce), consume sessions (one per user and topic, `maxEvents` then
 * COMPLETED) and tails. Kafka's own behaviour is the integration tests' concern (a real broker).
 */
export class InMemoryTopics implements TopicPorts {
  readonly bootstrap = 'in-memory:9092';
  readonly #topics = new Map<string, { spec: TopicSpec; records: StoredRecord[] }>();
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
      this.#topics.set(spec.name, { spec: stored, records: [] });
      return stored;
    },
    delete: async (name) => {
      this.#check();
      return this.#topics.delete(name);
    },
    ping: async () => this.#check(),
  };

  readonly producer: TopicPorts['producer'] = {
    send: async (topic, records) => {
      this.#check();
      const t = this.#topics.get(topic);
      if (!t) throw refusal('UNKNOWN_TOPIC_OR_PARTITION', `This server does not host this topic-partition.`);
      for (const r of records) {
        const stored: StoredRecord = { ...r, partition: 0, offset: t.records.length, timestamp: Date.now() };
        t.records.push(stored);
        for (const reader of this.#readers) if (reader.topic === topic) this.#deliver(reader, stored);
      }
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
