import { Admin, ListOffsetTimestamps } from '@platformatic/kafka';

type AdminOptions = ConstructorParameters<typeof Admin>[0];

/** A consumer group in the list: its state, members and total lag. */
export interface GroupSummary {
  readonly id: string;
  /** Kafka's group state: Stable, Empty, PreparingRebalance, CompletingRebalance, Dead, … */
  readonly state: string;
  readonly members: number;
  /** Sum over the group's committed partitions of end offset − committed offset. */
  readonly lag: number;
}

export interface GroupMemberDetail {
  readonly id: string;
  readonly clientId: string;
  readonly host: string;
  readonly assignments: readonly { readonly topic: string; readonly partitions: readonly number[] }[];
}

/** One partition a group has committed an offset for, or is assigned. */
export interface GroupPartition {
  readonly topic: string;
  readonly partition: number;
  /** null when the group has not committed an offset for it (an assigned partition). */
  readonly committedOffset: number | null;
  readonly endOffset: number;
  /** endOffset − committedOffset (0 when nothing is committed). */
  readonly lag: number;
  /** The member assigned the partition (its member id), or null. */
  readonly member: string | null;
}

export interface GroupDetail extends GroupSummary {
  readonly protocolType: string;
  readonly protocol: string;
  readonly memberDetails: readonly GroupMemberDetail[];
  readonly partitions: readonly GroupPartition[];
}

/** Per-partition lag of one group at one moment (what the lag sampler keeps). */
export interface GroupLag {
  readonly id: string;
  readonly partitions: readonly { readonly topic: string; readonly partition: number; readonly lag: number }[];
}

/** Where a reset moves a group's committed offsets. */
export type ResetTarget =
  | { readonly to: 'earliest' }
  | { readonly to: 'latest' }
  | { readonly to: 'timestamp'; readonly timestamp: number }
  | { readonly to: 'offset'; readonly offset: number };

/**
 * The partitions of a group: those its members are assigned and those it has committed offsets for,
 * by topic then partition. `keys` are what to read end offsets for; `rows` gives each partition's
 * committed offset, end offset, lag (0 without a commit) and member.
 */
export function groupPartitions(
  members: readonly Pick<GroupMemberDetail, 'id' | 'assignments'>[],
  committed: ReadonlyMap<string, ReadonlyMap<number, number>>,
): {
  keys: Map<string, Set<number>>;
  rows(endOffset: (topic: string, partition: number) => number): GroupPartition[];
} {
  const owner = new Map<string, string>();
  const keys = new Map<string, Set<number>>();
  const add = (topic: string, partition: number) => keys.set(topic, (keys.get(topic) ?? new Set()).add(partition));
  for (const m of members)
    for (const a of m.assignments)
      for (const p of a.partitions) {
        owner.set(`${a.topic}\u0000${p}`, m.id);
        add(a.topic, p);
      }
  for (const [topic, parts] of committed) for (const p of parts.keys()) add(topic, p);
  return {
    keys,
    rows: (endOffset) =>
      [...keys]
        .sort(([a], [b]) => a.localeCompare(b))
        .flatMap(([topic, parts]) =>
          [...parts]
            .sort((a, b) => a - b)
            .map((partition) => {
              const committedOffset = committed.get(topic)?.get(partition) ?? null;
              const end = endOffset(topic, partition);
              return {
                topic,
                partition,
                committedOffset,
                endOffset: end,
                lag: committedOffset === null ? 0 : Math.max(0, end - committedOffset),
                member: owner.get(`${topic}\u0000${partition}`) ?? null,
              };
            }),
        ),
  };
}

/** A reset or delete the group's state forbids (→ 400 with this message). */
export class GroupRefusal extends Error {}

/** A reset or delete refused because the group has members (the text the API answers). */
export function activeGroupRefusal(id: string, action: string, members: number, state: string): GroupRefusal {
  return new GroupRefusal(
    `Unable to ${action} group ${id}: it has ${members} active member${members === 1 ? '' : 's'} (state ${state}); stop its consumers first.`,
  );
}

/** A reset of a group without committed offsets and without named topics. */
export function noTopicsRefusal(id: string): GroupRefusal {
  return new GroupRefusal(`Group ${id} has no committed offsets; name the topics to reset in body.topics.`);
}

type Committed = Map<string, Map<number, number>>;

/**
 * Consumer groups of the cluster (issue 23: consumer groups): list, detail with per-partition lag,
 * the lag of every group at once (for the sampler), offset resets and deletion of empty groups.
 */
export class ConsumerGroups {
  readonly #admin: Admin;

  constructor(connection: AdminOptions) {
    this.#admin = new Admin({ ...connection, retries: 2, retryDelay: 200 });
  }

  /** Every group, sorted by id. */
  async list(): Promise<GroupSummary[]> {
    const ids = [...(await this.#admin.listGroups()).keys()].sort();
    if (ids.length === 0) return [];
    const [described, lags] = await Promise.all([this.#admin.describeGroups({ groups: ids }), this.lags(ids)]);
    const lagOf = new Map(lags.map((l) => [l.id, l.partitions.reduce((sum, p) => sum + p.lag, 0)]));
    return ids.map((id) => {
      const group = described.get(id);
      return { id, state: group?.state ?? 'Unknown', members: group?.members.size ?? 0, lag: lagOf.get(id) ?? 0 };
    });
  }

  /** One group in detail; undefined when the cluster does not know it. */
  async describe(id: string): Promise<GroupDetail | undefined> {
    if (!(await this.#admin.listGroups()).has(id)) return undefined;
    const [described, committed] = await Promise.all([
      this.#admin.describeGroups({ groups: [id] }),
      this.#committed([id]),
    ]);
    const group = described.get(id);
    const offsets = committed.get(id) ?? new Map<string, Map<number, number>>();
    const memberDetails: GroupMemberDetail[] = [...(group?.members.values() ?? [])].map((m) => ({
      id: m.id,
      clientId: m.clientId,
      host: m.clientHost,
      assignments: [...(m.assignments?.values() ?? [])].map((a) => ({
        topic: a.topic,
        partitions: [...a.partitions].sort((x, y) => x - y),
      })),
    }));
    const partitionsOf = groupPartitions(memberDetails, offsets);
    const ends = await this.#endOffsets(partitionsOf.keys);
    const partitions = partitionsOf.rows((topic, partition) => ends.get(topic)?.get(partition) ?? 0);
    return {
      id,
      state: group?.state ?? 'Unknown',
      members: memberDetails.length,
      lag: partitions.reduce((sum, p) => sum + p.lag, 0),
      protocolType: group?.protocolType ?? '',
      protocol: group?.protocol ?? '',
      memberDetails,
      partitions,
    };
  }

  /** The per-partition lag of the given groups (every group when `ids` is omitted), in few requests. */
  async lags(ids?: readonly string[]): Promise<GroupLag[]> {
    const groups = ids ?? [...(await this.#admin.listGroups()).keys()].sort();
    if (groups.length === 0) return [];
    const committed = await this.#committed(groups);
    const keys = new Map<string, Set<number>>();
    for (const topics of committed.values())
      for (const [topic, parts] of topics) {
        const set = keys.get(topic) ?? new Set<number>();
        for (const p of parts.keys()) set.add(p);
        keys.set(topic, set);
      }
    const ends = await this.#endOffsets(keys);
    return groups.map((id) => ({
      id,
      partitions: [...(committed.get(id) ?? [])].flatMap(([topic, parts]) =>
        [...parts].map(([partition, offset]) => ({
          topic,
          partition,
          lag: Math.max(0, (ends.get(topic)?.get(partition) ?? offset) - offset),
        })),
      ),
    }));
  }

  /**
   * Moves the group's committed offsets on `topics` (default: every topic it has committed offsets
   * for) to the target; refused while the group has members. Answers the new offsets.
   */
  async resetOffsets(
    id: string,
    target: ResetTarget,
    topics?: readonly string[],
  ): Promise<{ topic: string; partition: number; offset: number }[]> {
    await this.#refuseWhileActive(id, 'reset the offsets of');
    const committed = (await this.#committed([id])).get(id) ?? new Map<string, Map<number, number>>();
    const chosen = topics ?? [...committed.keys()].sort();
    if (chosen.length === 0) throw noTopicsRefusal(id);
    const existing = new Set(await this.#admin.listTopics());
    const missing = chosen.filter((t) => !existing.has(t));
    if (missing.length > 0) throw new GroupRefusal(`body.topics: topic ${missing.join(', ')} does not exist`);
    const metadata = await this.#admin.metadata({ topics: [...chosen], forceUpdate: true });
    const keys = new Map(chosen.map((t) => [t, new Set(metadata.topics.get(t)!.partitions.map((_, i) => i))] as const));
    let offsets: Map<string, Map<number, number>>;
    if (target.to === 'offset') {
      offsets = new Map(chosen.map((t) => [t, new Map([...keys.get(t)!].map((p) => [p, target.offset]))]));
      const [low, high] = await Promise.all([
        this.#endOffsets(keys, ListOffsetTimestamps.EARLIEST),
        this.#endOffsets(keys),
      ]);
      for (const [t, parts] of offsets)
        for (const [p, o] of parts) {
          const lo = low.get(t)?.get(p) ?? 0;
          const hi = high.get(t)?.get(p) ?? 0;
          if (o < lo || o > hi)
            throw new GroupRefusal(
              `body.offset: ${o} is outside partition ${t}-${p}, which holds offsets ${lo} to ${hi}`,
            );
        }
    } else {
      const timestamp =
        target.to === 'earliest'
          ? ListOffsetTimestamps.EARLIEST
          : target.to === 'latest'
            ? ListOffsetTimestamps.LATEST
            : BigInt(target.timestamp);
      offsets = await this.#endOffsets(keys, timestamp);
      if (target.to === 'timestamp') {
        // No record at or after the time: the end of the partition.
        const high = await this.#endOffsets(keys);
        for (const [t, parts] of offsets) for (const [p, o] of parts) if (o < 0) parts.set(p, high.get(t)?.get(p) ?? 0);
      }
    }
    await this.#admin.alterConsumerGroupOffsets({
      groupId: id,
      topics: [...offsets].map(([name, parts]) => ({
        name,
        partitionOffsets: [...parts].map(([partition, offset]) => ({ partition, offset: BigInt(offset) })),
      })),
    });
    return [...offsets]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([topic, parts]) =>
        [...parts].sort(([a], [b]) => a - b).map(([partition, offset]) => ({ topic, partition, offset })),
      );
  }

  /** Deletes a group without members; false when the cluster does not know it. */
  async delete(id: string): Promise<boolean> {
    if (!(await this.#admin.listGroups()).has(id)) return false;
    await this.#refuseWhileActive(id, 'delete');
    await this.#admin.deleteGroups({ groups: [id] });
    return true;
  }

  async #refuseWhileActive(id: string, action: string): Promise<void> {
    const group = (await this.#admin.describeGroups({ groups: [id] })).get(id);
    const members = group?.members.size ?? 0;
    if (members > 0) throw activeGroupRefusal(id, action, members, group!.state);
  }

  async #committed(ids: readonly string[]): Promise<Map<string, Committed>> {
    const listed = await this.#admin.listConsumerGroupOffsets({ groups: [...ids] });
    const out = new Map<string, Committed>();
    for (const g of listed) {
      const topics: Committed = new Map();
      for (const t of g.topics) {
        const parts = new Map<number, number>();
        for (const p of t.partitions)
          if (p.committedOffset >= 0n) parts.set(p.partitionIndex, Number(p.committedOffset));
        if (parts.size > 0) topics.set(t.name, parts);
      }
      out.set(g.groupId, topics);
    }
    return out;
  }

  /** topic → partition → offset at `timestamp` (default: the end), for the partitions given. */
  async #endOffsets(
    keys: ReadonlyMap<string, ReadonlySet<number>>,
    timestamp: bigint = ListOffsetTimestamps.LATEST,
  ): Promise<Map<string, Map<number, number>>> {
    const out = new Map<string, Map<number, number>>();
    if (keys.size === 0) return out;
    const existing = new Set(await this.#admin.listTopics());
    const topics = [...keys].filter(([t]) => existing.has(t));
    if (topics.length === 0) return out;
    const listed = await this.#admin.listOffsets({
      topics: topics.map(([name, parts]) => ({
        name,
        partitions: [...parts].map((partitionIndex) => ({ partitionIndex, timestamp })),
      })),
    });
    for (const t of listed) out.set(t.name, new Map(t.partitions.map((p) => [p.partitionIndex, Number(p.offset)])));
    return out;
  }

  async close(): Promise<void> {
    await this.#admin.close();
  }
}
