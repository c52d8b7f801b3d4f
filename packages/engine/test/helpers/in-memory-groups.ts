import {
  activeGroupRefusal,
  GroupRefusal,
  groupPartitions,
  noTopicsRefusal,
  type GroupDetail,
  type GroupLag,
  type GroupMemberDetail,
  type GroupPartition,
  type GroupSummary,
  type ResetTarget,
} from '../../src/kafka/consumer-groups.ts';
import type { TopicPorts } from '../../src/kafka/topic-clients.ts';

type GroupPorts = TopicPorts['groups'];

interface StoredGroup {
  members: GroupMemberDetail[];
  /** topic → partition → committed offset. */
  committed: Map<string, Map<number, number>>;
}

/**
 * Consumer groups in memory over in-memory topics (helpers/in-memory-topics.ts), for the route unit
 * tests: a test adds a group with its members and committed offsets; lag is the topic's end offset
 * minus the committed one. Kafka's own behaviour is the integration tests' concern.
 */
export class InMemoryGroups implements GroupPorts {
  readonly #groups = new Map<string, StoredGroup>();
  readonly #ends: (topic: string) => number[] | undefined;
  readonly #check: () => void;

  constructor(ends: (topic: string) => number[] | undefined, check: () => void) {
    this.#ends = ends;
    this.#check = check;
  }

  /** Adds (or replaces) a group: `committed` is topic → offsets by partition index. */
  add(id: string, committed: Record<string, number[]>, members: GroupMemberDetail[] = []): void {
    this.#groups.set(id, {
      members,
      committed: new Map(Object.entries(committed).map(([t, offsets]) => [t, new Map(offsets.entries())])),
    });
  }

  /** Members leave (the group becomes Empty). */
  leave(id: string): void {
    this.#groups.get(id)!.members = [];
  }

  #partitions(g: StoredGroup): GroupPartition[] {
    return groupPartitions(g.members, g.committed).rows((topic, partition) => this.#ends(topic)?.[partition] ?? 0);
  }

  #summary(id: string, g: StoredGroup): GroupSummary {
    return {
      id,
      state: g.members.length > 0 ? 'Stable' : 'Empty',
      members: g.members.length,
      lag: this.#partitions(g).reduce((s, p) => s + p.lag, 0),
    };
  }

  list = async (): Promise<GroupSummary[]> => {
    this.#check();
    return [...this.#groups].sort(([a], [b]) => a.localeCompare(b)).map(([id, g]) => this.#summary(id, g));
  };

  describe = async (id: string): Promise<GroupDetail | undefined> => {
    this.#check();
    const g = this.#groups.get(id);
    if (!g) return undefined;
    return {
      ...this.#summary(id, g),
      protocolType: 'consumer',
      protocol: g.members.length > 0 ? 'roundrobin' : '',
      memberDetails: g.members,
      partitions: this.#partitions(g),
    };
  };

  lags = async (ids?: readonly string[]): Promise<GroupLag[]> => {
    this.#check();
    return (ids ?? [...this.#groups.keys()].sort()).flatMap((id) => {
      const g = this.#groups.get(id);
      if (!g) return [];
      const partitions = this.#partitions(g)
        .filter((p) => p.committedOffset !== null)
        .map(({ topic, partition, lag }) => ({ topic, partition, lag }));
      return [{ id, partitions }];
    });
  };

  resetOffsets = async (id: string, target: ResetTarget, topics?: readonly string[]) => {
    this.#check();
    const g = this.#groups.get(id)!;
    if (g.members.length > 0) throw activeGroupRefusal(id, 'reset the offsets of', g.members.length, 'Stable');
    const chosen = topics ?? [...g.committed.keys()].sort();
    if (chosen.length === 0) throw noTopicsRefusal(id);
    const missing = chosen.filter((t) => this.#ends(t) === undefined);
    if (missing.length > 0) throw new GroupRefusal(`body.topics: topic ${missing.join(', ')} does not exist`);
    const out: { topic: string; partition: number; offset: number }[] = [];
    for (const topic of [...chosen].sort()) {
      const ends = this.#ends(topic)!;
      const parts = g.committed.get(topic) ?? new Map<number, number>();
      ends.forEach((end, partition) => {
        if (target.to === 'offset' && target.offset > end)
          throw new GroupRefusal(
            `body.offset: ${target.offset} is outside partition ${topic}-${partition}, which holds offsets 0 to ${end}`,
          );
        // The in-memory records carry no timestamps per partition worth resolving: a time means the end.
        const offset = target.to === 'earliest' ? 0 : target.to === 'offset' ? target.offset : end;
        parts.set(partition, offset);
        out.push({ topic, partition, offset });
      });
      g.committed.set(topic, parts);
    }
    return out;
  };

  delete = async (id: string): Promise<boolean> => {
    this.#check();
    const g = this.#groups.get(id);
    if (!g) return false;
    if (g.members.length > 0) throw activeGroupRefusal(id, 'delete', g.members.length, 'Stable');
    return this.#groups.delete(id);
  };
}
