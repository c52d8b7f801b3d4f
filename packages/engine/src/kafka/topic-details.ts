import {
  Admin,
  ConfigResourceTypes,
  ConfigSources,
  IncrementalAlterConfigOperationTypes,
  ListOffsetTimestamps,
} from '@platformatic/kafka';
import { isUnknownTopic } from './broker-errors.ts';

type AdminOptions = ConstructorParameters<typeof Admin>[0];

/** One partition of a topic as the cluster shows it. */
export interface PartitionDetail {
  readonly partition: number;
  /** Broker id of the leader; -1 while the partition has none. */
  readonly leader: number;
  readonly replicas: readonly number[];
  readonly inSyncReplicas: readonly number[];
  /** The log start offset (earliest offset still stored) and the end offset (next to be written). */
  readonly lowOffset: number;
  readonly highOffset: number;
  /** high - low: records stored, counting transaction markers and the gaps compaction left. */
  readonly messages: number;
  /** Bytes of the partition's log on its leader (0 when the broker does not say). */
  readonly sizeBytes: number;
}

export interface TopicPartitions {
  readonly name: string;
  readonly partitions: readonly PartitionDetail[];
  readonly messages: number;
  readonly sizeBytes: number;
}

/** One topic setting: its effective value, where it comes from, and whether the topic overrides it. */
export interface TopicSetting {
  readonly name: string;
  /** null for a sensitive setting (the broker does not return it) or one without a value. */
  readonly value: string | null;
  /** Kafka's config source: DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG, … */
  readonly source: string;
  /** Set on the topic itself (source DYNAMIC_TOPIC_CONFIG): changed from the broker's default. */
  readonly changed: boolean;
  readonly readOnly: boolean;
  readonly sensitive: boolean;
}

export interface SettingsChange {
  /** Settings to set on the topic, name → value. */
  readonly set: Readonly<Record<string, string>>;
  /** Settings to remove from the topic (back to the broker's default). */
  readonly reset: readonly string[];
}

/** Where a purge ends: per partition, the offset before which records are deleted; or a time. */
export type PurgeLimit =
  | { readonly kind: 'offsets'; readonly offsets: ReadonlyMap<number, number> }
  | { readonly kind: 'before'; readonly timestamp: number };

/** A request the cluster cannot carry out as asked (→ 400 naming the field). */
export class DetailRefusal extends Error {}

const sourceNames = new Map<number, string>(
  Object.entries(ConfigSources)
    .filter(([name]) => name !== 'TOPIC_CONFIG')
    .map(([name, id]) => [id, name]),
);

/** Longest wait for the cluster's metadata to show added partitions. */
const settleMs = 10_000;

/**
 * A topic in depth (issue 23: topics in depth): partitions with leader, replicas, in-sync replicas,
 * offsets, record counts and sizes; settings with their source; changing settings, adding
 * partitions, deleting records up to an offset or a time.
 */
export class TopicDetails {
  readonly #admin: Admin;

  constructor(connection: AdminOptions) {
    this.#admin = new Admin({ ...connection, retries: 2, retryDelay: 200 });
  }

  /** Every partition with its offsets and size; undefined when the topic does not exist. */
  async partitions(name: string): Promise<TopicPartitions | undefined> {
    const topic = await this.#metadata(name);
    if (!topic) return undefined;
    const indexes = topic.partitions.map((_, i) => i);
    const [low, high, sizes] = await Promise.all([
      this.#offsets(name, indexes, ListOffsetTimestamps.EARLIEST),
      this.#offsets(name, indexes, ListOffsetTimestamps.LATEST),
      this.#sizes(name, indexes),
    ]);
    const partitions = topic.partitions.map((p, i): PartitionDetail => {
      const lowOffset = low.get(i) ?? 0;
      const highOffset = high.get(i) ?? 0;
      return {
        partition: i,
        leader: p.leader,
        replicas: [...p.replicas],
        inSyncReplicas: [...p.isr],
        lowOffset,
        highOffset,
        messages: Math.max(0, highOffset - lowOffset),
        sizeBytes: sizes.get(`${i}:${p.leader}`) ?? 0,
      };
    });
    return {
      name,
      partitions,
      messages: partitions.reduce((sum, p) => sum + p.messages, 0),
      sizeBytes: partitions.reduce((sum, p) => sum + p.sizeBytes, 0),
    };
  }

  /** Every setting of the topic, sorted by name; undefined when the topic does not exist. */
  async settings(name: string): Promise<TopicSetting[] | undefined> {
    if (!(await this.#metadata(name))) return undefined;
    const [description] = await this.#admin.describeConfigs({
      resources: [{ resourceType: ConfigResourceTypes.TOPIC, resourceName: name }],
    });
    return [...(description?.configs ?? [])]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((c) => ({
        name: c.name,
        value: c.value ?? null,
        source: sourceNames.get(c.configSource) ?? 'UNKNOWN',
        changed: c.configSource === ConfigSources.DYNAMIC_TOPIC_CONFIG,
        readOnly: c.readOnly,
        sensitive: c.isSensitive,
      }));
  }

  /** Sets and resets settings in one incremental change; broker refusals are thrown. */
  async changeSettings(name: string, change: SettingsChange): Promise<void> {
    await this.#admin.incrementalAlterConfigs({
      resources: [
        {
          resourceType: ConfigResourceTypes.TOPIC,
          resourceName: name,
          configs: [
            ...Object.entries(change.set).map(([key, value]) => ({
              name: key,
              configOperation: IncrementalAlterConfigOperationTypes.SET,
              value,
            })),
            ...change.reset.map((key) => ({
              name: key,
              configOperation: IncrementalAlterConfigOperationTypes.DELETE,
              value: null,
            })),
          ],
        },
      ],
    });
  }

  /** Grows the topic to `count` partitions and waits until every new one has a leader. */
  async addPartitions(name: string, count: number): Promise<void> {
    await this.#admin.createPartitions({ topics: [{ name, count }] });
    const deadline = Date.now() + settleMs;
    const indexes = Array.from({ length: count }, (_, i) => i);
    while (Date.now() < deadline) {
      const topic = await this.#metadata(name);
      if (topic && topic.partitions.length >= count && topic.partitions.every((p) => p.leader >= 0)) {
        // A new partition's leader is known some time before its offsets can be listed (seconds for
        // hundreds of partitions): the answer, and the next read of the topic, list them.
        const listed = await this.#offsets(name, indexes, ListOffsetTimestamps.LATEST).then(
          () => true,
          () => false,
        );
        if (listed) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Deletes the records before the limit: per partition up to an offset (which must lie between the
   * partition's low and high offsets), or every record older than a time (on each partition up to the
   * first offset whose timestamp is at or after it). Answers each partition's new low offset.
   */
  async purge(name: string, limit: PurgeLimit): Promise<Map<number, number>> {
    const topic = await this.#metadata(name);
    if (!topic) throw new DetailRefusal(`topic ${name} does not exist`);
    const indexes = topic.partitions.map((_, i) => i);
    const high = await this.#offsets(name, indexes, ListOffsetTimestamps.LATEST);
    let targets: Map<number, number>;
    if (limit.kind === 'offsets') {
      for (const [partition, offset] of limit.offsets) {
        const end = high.get(partition);
        if (end === undefined)
          throw new DetailRefusal(
            `body.offsets.${partition}: topic ${name} has no partition ${partition} (it has ${indexes.length})`,
          );
        if (offset > end)
          throw new DetailRefusal(
            `body.offsets.${partition}: ${offset} is beyond the end of partition ${partition} (high offset ${end})`,
          );
      }
      targets = new Map(limit.offsets);
    } else {
      const at = await this.#offsets(name, indexes, BigInt(limit.timestamp));
      // No record at or after the time: every record of the partition is older.
      targets = new Map(indexes.map((i) => [i, (at.get(i) ?? -1) < 0 ? (high.get(i) ?? 0) : at.get(i)!]));
    }
    if (targets.size === 0) return new Map();
    const [deleted] = await this.#admin.deleteRecords({
      topics: [
        { name, partitions: [...targets].map(([partition, offset]) => ({ partition, offset: BigInt(offset) })) },
      ],
    });
    return new Map((deleted?.partitions ?? []).map((p) => [p.partition, Number(p.lowWatermark)]));
  }

  async #metadata(name: string) {
    try {
      if (!(await this.#admin.listTopics()).includes(name)) return undefined;
      const metadata = await this.#admin.metadata({ topics: [name], forceUpdate: true, retries: 0 });
      return metadata.topics.get(name);
    } catch (err) {
      if (isUnknownTopic(err)) return undefined;
      throw err;
    }
  }

  async #offsets(name: string, partitions: number[], timestamp: bigint): Promise<Map<number, number>> {
    if (partitions.length === 0) return new Map();
    const [listed] = await this.#admin.listOffsets({
      topics: [{ name, partitions: partitions.map((partitionIndex) => ({ partitionIndex, timestamp })) }],
    });
    return new Map((listed?.partitions ?? []).map((p) => [p.partitionIndex, Number(p.offset)]));
  }

  /** `partition:broker` → bytes, from every broker's log directories. */
  async #sizes(name: string, partitions: number[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    if (partitions.length === 0) return sizes;
    const brokers = await this.#admin.describeLogDirs({ topics: [{ name, partitions }] });
    for (const broker of brokers)
      for (const dir of broker.results)
        for (const topic of dir.topics)
          if (topic.name === name)
            for (const p of topic.partitions) {
              const key = `${p.partitionIndex}:${broker.broker}`;
              sizes.set(key, (sizes.get(key) ?? 0) + Number(p.partitionSize));
            }
    return sizes;
  }

  async close(): Promise<void> {
    await this.#admin.close();
  }
}
