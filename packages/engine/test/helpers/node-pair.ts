import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { assignmentByNode, createReplicatedTopics } from './correlation-stream.ts';
import { initAdmin, login, NodeProcess } from './node-process.ts';
import { uniqueTopic } from '@weir/test-helpers/topics';

export type Guarantee = 'at_least_once' | 'exactly_once_v2';

/**
 * Settings shared by the nodes of one fault test: their own consumer group and Weir topics, the
 * configuration shared through the Kafka store, a 1 s heartbeat and 3 s liveness threshold, info logs.
 */
export function faultSettings(
  label: string,
  guarantee: Guarantee,
): { settings: Record<string, string>; groupId: string; alertsTopic: string } {
  const isolated = isolatedEngine(label) as Record<string, string>;
  return {
    settings: {
      ...isolated,
      'weir.config.store': 'kafka',
      'processing.guarantee': guarantee,
      'weir.node.heartbeat-seconds': '1',
      'weir.node.dead-after-seconds': '3',
      // a failed fault test prints its nodes' logs: with the workers' assignments, restores and restarts
      'weir.log.level': process.env.WEIR_TEST_NODE_LOG_LEVEL ?? 'info',
    },
    groupId: isolated['weir.application.id']!,
    alertsTopic: `${isolated['weir.topic.prefix']!}_alerts`,
  };
}

export async function startNode(settings: Record<string, string>): Promise<NodeProcess> {
  const node = new NodeProcess();
  await node.configure(settings);
  await node.start();
  return node;
}

/**
 * Waits until the live members of the group hold every partition of `topic` as `want` says
 * (partition counts per node uuid) and the group is stable; returns the ms it took.
 */
export async function waitForAssignment(
  groupId: string,
  topic: string,
  partitions: number,
  want: Record<string, (held: number) => boolean>,
  timeoutMs: number,
  what: string,
): Promise<number> {
  const started = Date.now();
  const uuids = Object.keys(want);
  let last = '';
  try {
    return await waitFor(
      what,
      async () => {
        const seen = await assignmentByNode(groupId, topic, uuids).catch((err: Error) => ({ error: err.message }));
        if ('error' in seen) {
          last = seen.error;
          return undefined;
        }
        const held = [...seen.byNode.values()].flat().sort((a, b) => a - b);
        last = JSON.stringify({
          state: seen.state,
          byNode: Object.fromEntries(seen.byNode),
          unknownMembers: seen.unknownMembers,
        });
        const complete = held.length === partitions && held.every((p, i) => p === i);
        const ok =
          complete &&
          seen.unknownMembers === 0 &&
          seen.state.toLowerCase() === 'stable' &&
          uuids.every((u) => want[u]!(seen.byNode.get(u)!.length));
        return ok ? Date.now() - started : undefined;
      },
      timeoutMs,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; last seen: ${last}`, { cause: err });
  }
}

/** Partitions of a fault run's input topic. */
export const inputPartitions = 4;

/** One fault test's setup: its settings, its input and output topics, and the nodes it starts. */
export interface FaultRun {
  readonly settings: Record<string, string>;
  readonly groupId: string;
  readonly alertsTopic: string;
  /** `<topic>-in-…`, 4 partitions, 3 replicas. */
  readonly input: string;
  /** `<topic>-out-…`, 3 replicas. */
  readonly output: string;
  /** Starts a node with the run's settings (and `extra`); every one is stopped when the run ends. */
  startNode(extra?: Record<string, string>): Promise<NodeProcess>;
}

/**
 * Runs `body` with a fault run: settings from faultSettings(label, guarantee), a fresh input topic of
 * 4 partitions and an output topic of `outputPartitions`, and the nodes it starts stopped at the end
 * (whatever the outcome).
 */
export async function faultRun<T>(
  options: { label: string; guarantee: Guarantee; topic: string; outputPartitions: number },
  body: (run: FaultRun) => Promise<T>,
): Promise<T> {
  const { settings, groupId, alertsTopic } = faultSettings(options.label, options.guarantee);
  const input = uniqueTopic(`${options.topic}-in`);
  const output = uniqueTopic(`${options.topic}-out`);
  await createReplicatedTopics([input], inputPartitions);
  await createReplicatedTopics([output], options.outputPartitions);
  const nodes: NodeProcess[] = [];
  try {
    return await body({
      settings,
      groupId,
      alertsTopic,
      input,
      output,
      async startNode(extra = {}) {
        const node = await startNode({ ...settings, ...extra });
        nodes.push(node);
        return node;
      },
    });
  } finally {
    for (const node of nodes) await node.stop();
  }
}

/** Waits until both nodes hold input partitions of the run (and the group is stable); returns the ms it took. */
export function waitForBoth(run: FaultRun, a: NodeProcess, b: NodeProcess): Promise<number> {
  return waitForAssignment(
    run.groupId,
    run.input,
    inputPartitions,
    { [a.uuid]: (n) => n > 0, [b.uuid]: (n) => n > 0 },
    120_000,
    'both nodes to hold input partitions',
  );
}

/**
 * Two nodes of the run, both running: the first is initialised (admin/admin-pw) and `configure`
 * stores the configuration through it; returns once both hold input partitions.
 */
export async function startPair(
  run: FaultRun,
  configure: (node: NodeProcess, token: string) => Promise<void>,
): Promise<{ a: NodeProcess; b: NodeProcess; token: string }> {
  const a = await run.startNode();
  const b = await run.startNode();
  const token = await initAdmin(a);
  await configure(a, token);
  await a.waitRunning(token);
  await b.waitRunning(await login(b));
  await waitForBoth(run, a, b);
  return { a, b, token };
}
