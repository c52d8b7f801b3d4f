import { isolatedEngine, waitFor } from './engine.ts';
import { assignmentByNode } from './correlation-stream.ts';
import { NodeProcess } from './node-process.ts';

export type Guarantee = 'at_least_once' | 'exactly_once_v2';

/**
 * Settings shared by the nodes of one fault test: their own consumer group and Weir topics, the
 * configuration shared through the Kafka store, a 1 s heartbeat and 3 s liveness threshold.
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
