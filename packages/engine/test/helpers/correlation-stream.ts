import assert from 'node:assert/strict';
import { Admin, ProduceAcks, Producer } from '@platformatic/kafka';
import { keepEverything } from '@weir/test-helpers/kafka';
import type { NodeProcess } from './node-process.ts';
import { testBootstrap } from '@weir/test-helpers/test-node';

/**
 * The deterministic correlation stream of issue 12: 50 users × 40 `login` events, all inside one
 * 10-minute window, and the rule `event_count timespan=10m group_by user reset=false where
 * _aggregation.value >= 20`. Whatever the partitioning, threads, nodes, restarts and rebalances,
 * every user must get exactly 21 alerts, with `_aggregation.value` 20, 21, …, 40 (1,050 in all):
 * what one worker reading the events in order gives (`expectedAlerts`).
 */
export const users = 50;
export const eventsPerUser = 40;
export const threshold = 20;
export const ruleId = 'login-burst';
export const rulePdl = `action="login" | event_count timespan=10m group_by user reset=false where _aggregation.value >= ${threshold}`;

/** Event times in the past (a replay of recorded logs): 2023-06-01, 100 ms apart. */
export const pastBase = Date.UTC(2023, 5, 1, 8, 0, 0);

export interface StreamEvent {
  readonly value: string;
  readonly timestamp: number;
  /** The input partition it is written to: the events are spread over every partition, without keys. */
  readonly partition: number;
}

const userName = (u: number) => `user${String(u).padStart(2, '0')}`;

/**
 * Half `half` (0 or 1) of the stream: events 20·half … 20·half+19 of every user, users interleaved,
 * record timestamps `base + 100 ms · sequence`, spread round-robin over `partitions`, keys null.
 */
export function streamHalf(half: 0 | 1, partitions = 4, base = pastBase): StreamEvent[] {
  const out: StreamEvent[] = [];
  const per = eventsPerUser / 2;
  for (let i = half * per; i < (half + 1) * per; i++) {
    for (let u = 0; u < users; u++) {
      const seq = i * users + u;
      out.push({
        value: JSON.stringify({ seq, user: userName(u), action: 'login', n: i + 1 }),
        timestamp: base + 100 * seq,
        partition: seq % partitions,
      });
    }
  }
  return out;
}

/** The single-worker reference: per user, the `_aggregation.value` of each alert, in order. */
export function expectedAlerts(): Map<string, number[]> {
  const expected = new Map<string, number[]>();
  for (let u = 0; u < users; u++) {
    const values: number[] = [];
    // reset=false: the count of the user's events in the window, after each event; an alert from the threshold on.
    for (let count = 1; count <= eventsPerUser; count++) if (count >= threshold) values.push(count);
    expected.set(userName(u), values);
  }
  return expected;
}

/** Alerts of the correlation rule on the alerts topic, per user: the `_aggregation.value`s, sorted. */
export function alertsByUser(values: readonly string[], rule = ruleId): Map<string, number[]> {
  const by = new Map<string, number[]>();
  for (const text of values) {
    const alert = JSON.parse(text) as {
      _rule?: { id?: string };
      _aggregation?: { value: number; groupBy: { user: string } };
    };
    if (alert._rule?.id !== rule || !alert._aggregation) continue;
    const user = alert._aggregation.groupBy.user;
    let list = by.get(user);
    if (!list) by.set(user, (list = []));
    list.push(alert._aggregation.value);
  }
  for (const list of by.values()) list.sort((a, b) => a - b);
  return new Map([...by].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Expected alerts absent from `actual`; alerts beyond the expected ones (repeats or wrong values);
 * and among those the `invented` ones: values the reference never has for that user (a count of 41
 * for 40 events). at_least_once may repeat records (issue 12: "may repeat but never lose"), and a
 * repeated record counted again by a correlation gives such values; the tests report them.
 */
export function compareAlerts(
  actual: Map<string, number[]>,
  expected = expectedAlerts(),
): { missing: string[]; extra: string[]; invented: string[]; total: number } {
  const missing: string[] = [];
  const extra: string[] = [];
  const invented: string[] = [];
  let total = 0;
  for (const [user, want] of expected) {
    const have = new Map<number, number>();
    for (const v of actual.get(user) ?? []) have.set(v, (have.get(v) ?? 0) + 1);
    for (const v of want) {
      const n = have.get(v) ?? 0;
      if (n === 0) missing.push(`${user}:${v}`);
      else have.set(v, n - 1);
    }
    for (const [v, n] of have) {
      for (let i = 0; i < n; i++) {
        extra.push(`${user}:${v}`);
        if (!want.includes(v)) invented.push(`${user}:${v}`);
      }
    }
  }
  for (const [user, values] of actual) {
    total += values.length;
    if (expected.has(user)) continue;
    for (const v of values) {
      extra.push(`${user}:${v}`);
      invented.push(`${user}:${v}`);
    }
  }
  return { missing, extra, invented, total };
}

/** Writes events with acks=all (keys null, the partition each event names, its timestamp). */
export async function produceEvents(
  topic: string,
  events: readonly StreamEvent[],
  bootstrap = testBootstrap(),
): Promise<void> {
  // Patient, and never on stale metadata: after a broker is killed, the controller notices only at
  // its session timeout (KRaft's broker.session.timeout.ms, 9 s) and then elects new leaders. The
  // client's own retries keep the leader it last knew when the answer is an error rather than a
  // broken connection (91 attempts failed so in one CI run), so each refused batch is sent again
  // after its metadata is dropped, until a deadline. A batch holds one partition's records. Until the
  // cluster leaves a dead broker out of the in-sync replicas, a batch may be refused (acks=all timed
  // out) and stored all the same, and is then written twice: seen with kcat, 125 to 250 events twice
  // per run. A test that counts records writes nothing between a broker's death and that moment.
  const producer = new Producer({
    clientId: 'weir-fault-producer',
    bootstrapBrokers: bootstrap.split(','),
    retries: 3,
    retryDelay: 500,
  });
  const deadline = Date.now() + 180_000;
  try {
    for (const batch of partitionBatches(events, 500)) {
      for (let attempt = 1; ; attempt++) {
        try {
          await producer.send({
            messages: batch.map((e) => ({
              topic,
              partition: e.partition,
              value: Buffer.from(e.value),
              timestamp: BigInt(e.timestamp),
            })),
            acks: ProduceAcks.ALL,
          });
          break;
        } catch (err) {
          if (Date.now() > deadline)
            throw new Error(`producing to ${topic} failed ${attempt} times over 180 s`, { cause: err });
          producer.clearMetadata();
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    }
  } finally {
    await producer.close();
  }
}

/** Splits `events` into batches of at most `size` records of one partition each, keeping their order within a partition. */
function partitionBatches(events: readonly StreamEvent[], size: number): StreamEvent[][] {
  const batches: StreamEvent[][] = [];
  const open = new Map<number, StreamEvent[]>();
  for (const e of events) {
    let batch = open.get(e.partition);
    if (!batch) {
      batch = [];
      open.set(e.partition, batch);
      batches.push(batch);
    }
    batch.push(e);
    if (batch.length === size) open.delete(e.partition);
  }
  return batches;
}

/** Creates topics on the cluster: replication 3 and min.insync.replicas=2 when it has three brokers. */
export async function createReplicatedTopics(
  topics: string[],
  partitions: number,
  bootstrap = testBootstrap(),
): Promise<void> {
  const admin = new Admin({ clientId: 'weir-fault-admin', bootstrapBrokers: bootstrap.split(',') });
  try {
    const brokers = (await admin.metadata({ topics: [] })).brokers.size;
    await admin.createTopics({
      topics,
      partitions,
      replicas: brokers >= 3 ? 3 : 1,
      configs: [...keepEverything, ...(brokers >= 3 ? [{ name: 'min.insync.replicas', value: '2' }] : [])],
    });
  } finally {
    await admin.close();
  }
}

/**
 * Configures the stream through a node's API: the correlation rule (and `extraRules`), an
 * APPLY_RULES task, a pipeline and a topology reading `input`; alerts go to `<prefix>_alerts`.
 */
export async function configureCorrelation(
  node: NodeProcess,
  token: string,
  input: string,
  output: string,
  extraRules: { id: string; pdl: string }[] = [],
): Promise<void> {
  const rules = [{ id: ruleId, pdl: rulePdl }, ...extraRules];
  const calls: [string, unknown][] = [
    ...rules.map((r): [string, unknown] => [
      '/api/rules',
      { id: r.id, name: r.id, description: '', pdl: r.pdl, annotations: [], enabled: true },
    ]),
    [
      '/api/tasks',
      { id: 1, name: 'rules', description: '', function: 'APPLY_RULES', definition: { rules: rules.map((r) => r.id) } },
    ],
    ['/api/pipelines', { id: 1, name: 'detect', description: '', tasks: [1] }],
    [
      '/api/topologies',
      {
        id: 1,
        name: 'logins',
        description: '',
        pipelines: [1],
        enabled: true,
        group: 'default',
        input: { name: input },
        output: [{ name: output }],
      },
    ],
  ];
  for (const [p, body] of calls) {
    const res = await node.call('POST', p, { token, body });
    assert.equal(res.status, 201, `${p}: ${res.text}`);
  }
}

/** Partitions of `topic` held by the members of a consumer group, by the node uuid in their client id. */
export async function assignmentByNode(
  groupId: string,
  topic: string,
  nodeUuids: string[],
  bootstrap = testBootstrap(),
): Promise<{ state: string; byNode: Map<string, number[]>; unknownMembers: number }> {
  const admin = new Admin({ clientId: 'weir-fault-observer', bootstrapBrokers: bootstrap.split(',') });
  try {
    const group = (await admin.describeGroups({ groups: [groupId] })).get(groupId);
    const byNode = new Map<string, number[]>(nodeUuids.map((u) => [u, []]));
    let unknownMembers = 0;
    for (const member of group?.members.values() ?? []) {
      const owner = nodeUuids.find((u) => member.clientId.includes(u));
      if (!owner) {
        unknownMembers++;
        continue;
      }
      const partitions = member.assignments?.get(topic)?.partitions ?? [];
      byNode.get(owner)!.push(...partitions);
    }
    for (const list of byNode.values()) list.sort((a, b) => a - b);
    return { state: String(group?.state ?? 'UNKNOWN'), byNode, unknownMembers };
  } finally {
    await admin.close();
  }
}
