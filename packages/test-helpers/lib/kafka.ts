import { randomBytes } from 'node:crypto';
import { Admin, Consumer, FetchIsolationLevels, ProduceAcks, Producer, type Message } from '@platformatic/kafka';
import { dropAbortedOnFetch } from '@weir/engine';
import { testBootstrap } from './test-node.ts';

/**
 * A test topic keeps its records whatever their timestamps: tests write events of 2023 (a replay),
 * and time retention (7 days by default, counted from the records' own timestamps) would delete them
 * at the broker's next retention check once their segment rolls, which a record that old makes happen
 * at the next write. Seen in the fault tests: half an input topic gone before Weir read it.
 */
export const keepEverything = [{ name: 'retention.ms', value: '-1' }];

/**
 * Real Kafka clients for tests that write to and read from topics directly. `configs`: the topics'
 * settings (a short `retention.ms` for the retention warnings); by default they keep everything.
 */
export async function createTopics(
  topics: string[],
  partitions = 1,
  configs: { name: string; value: string }[] = keepEverything,
): Promise<void> {
  const admin = new Admin({ clientId: 'weir-test-admin', bootstrapBrokers: [testBootstrap()] });
  try {
    await admin.createTopics({ topics, partitions, replicas: 1, configs });
  } finally {
    await admin.close();
  }
}

export async function produce(
  topic: string,
  values: (string | Buffer)[],
  keyOf?: (i: number) => string,
): Promise<void> {
  // Idempotent: right after a topic is created its leaders may not be known yet, and the client's
  // retry of a batch the broker did write would otherwise write it again (tests saw records twice).
  const producer = new Producer({
    clientId: 'weir-test-producer',
    bootstrapBrokers: [testBootstrap()],
    idempotent: true,
  });
  try {
    for (let i = 0; i < values.length; i += 5000) {
      const messages = values.slice(i, i + 5000).map((v, j) => ({
        topic,
        key: keyOf ? Buffer.from(keyOf(i + j)) : undefined,
        value: Buffer.isBuffer(v) ? v : Buffer.from(v),
      }));
      await producer.send({ messages, acks: ProduceAcks.ALL });
    }
  } finally {
    await producer.close();
  }
}

export type RawMessage = Message<Buffer, Buffer, Buffer, Buffer>;

/**
 * Reads a topic from the start until `count` records arrived or `timeoutMs` passed (then returns what
 * it has). With `committedOnly`, reads with isolation level read_committed.
 */
export async function consume(
  topic: string,
  count: number,
  timeoutMs = 30_000,
  committedOnly = false,
): Promise<RawMessage[]> {
  const records = await consumeUntil(topic, (r) => r.length >= count, timeoutMs, committedOnly, 0);
  return records.slice(0, count);
}

export const text = (m: RawMessage) => m.value.toString('utf8');
export const json = (m: RawMessage) => JSON.parse(m.value.toString('utf8')) as Record<string, unknown>;
export const header = (m: RawMessage, name: string) => {
  for (const [k, v] of m.headers) if (k.toString() === name) return v.toString();
  return undefined;
};

/**
 * Reads a topic from the start with one consumer until `done(records so far)` holds, then goes on
 * for `settleMs` more to catch duplicates, or until `timeoutMs`. Returns everything read.
 */
export async function consumeUntil(
  topic: string,
  done: (records: RawMessage[]) => boolean,
  timeoutMs: number,
  committedOnly = false,
  settleMs = 2000,
): Promise<RawMessage[]> {
  const consumer = new Consumer({
    clientId: 'weir-test-consumer',
    groupId: `weir-test-${randomBytes(6).toString('hex')}`,
    bootstrapBrokers: [testBootstrap()],
    maxWaitTime: 200,
    isolationLevel: committedOnly ? FetchIsolationLevels.READ_COMMITTED : FetchIsolationLevels.READ_UNCOMMITTED,
  });
  // a read_committed reader leaves out aborted transactions' records (the client alone does not)
  if (committedOnly) dropAbortedOnFetch(consumer);
  const out: RawMessage[] = [];
  try {
    const stream = await consumer.consume({ topics: [topic], mode: 'earliest', autocommit: false });
    let timer = setTimeout(() => void stream.close(), timeoutMs);
    let settling = false;
    let checked = 0;
    try {
      for await (const message of stream) {
        out.push(message as RawMessage);
        // Checking may be O(n): do it when the stream pauses, every 5,000 records, or without settling at once.
        if (!settling && (settleMs === 0 || stream.readableLength === 0 || out.length - checked >= 5000)) {
          checked = out.length;
          if (done(out)) {
            if (settleMs === 0) break;
            settling = true;
            clearTimeout(timer);
            timer = setTimeout(() => void stream.close(), settleMs);
          }
        }
      }
    } finally {
      clearTimeout(timer);
      await stream.close().catch(() => {});
    }
  } finally {
    await consumer.close(true).catch(() => {});
  }
  return out;
}
