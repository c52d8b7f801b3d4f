import { Admin, ConfigResourceTypes } from '@platformatic/kafka';
import { isUnknownTopic } from './broker-errors.ts';
import type { TopicSpec } from './topic-spec.ts';

type AdminOptions = ConstructorParameters<typeof Admin>[0];

/** Longest wait for the cluster's metadata to show a created or deleted topic. */
const settleMs = 10_000;

/** Topic administration on the cluster (spec: Endpoints → Topics). */
export class TopicAdmin {
  readonly #admin: Admin;

  constructor(connection: AdminOptions) {
    // Few, quick retries: a refusal must come back to the API caller promptly.
    this.#admin = new Admin({ ...connection, retries: 2, retryDelay: 200 });
  }

  /** Every topic name but Kafka's internal ones, sorted. */
  async list(): Promise<string[]> {
    return (await this.#admin.listTopics()).sort();
  }

  async exists(name: string): Promise<boolean> {
    return (await this.#admin.listTopics()).includes(name);
  }

  /** Partitions, replication factor and every effective setting, or undefined when missing. */
  async describe(name: string): Promise<TopicSpec | undefined> {
    if (!(await this.exists(name))) return undefined;
    try {
      const metadata = await this.#admin.metadata({ topics: [name], forceUpdate: true, retries: 0 });
      const topic = metadata.topics.get(name);
      if (!topic) return undefined;
      const [description] = await this.#admin.describeConfigs({
        resources: [{ resourceType: ConfigResourceTypes.TOPIC, resourceName: name }],
      });
      const options: Record<string, string> = {};
      for (const config of [...(description?.configs ?? [])].sort((a, b) => a.name.localeCompare(b.name))) {
        if (typeof config.value === 'string') options[config.name] = config.value;
      }
      return {
        name,
        numberOfPartitions: topic.partitionsCount,
        replicationFactor: topic.partitions[0]?.replicas.length ?? 0,
        options,
      };
    } catch (err) {
      if (isUnknownTopic(err)) return undefined;
      throw err;
    }
  }

  /** Creates one topic; the answer carries every effective setting. Broker refusals are thrown. */
  async create(spec: TopicSpec): Promise<TopicSpec> {
    const [created] = await this.#admin.createTopics({
      topics: [spec.name],
      partitions: spec.numberOfPartitions,
      replicas: spec.replicationFactor,
      configs: Object.entries(spec.options).map(([name, value]) => ({ name, value })),
    });
    await this.#settle(spec.name, true);
    const options: Record<string, string> = {};
    for (const [key, value] of Object.entries(created?.configuration ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
      if (typeof value === 'string') options[key] = value;
    }
    return {
      name: spec.name,
      numberOfPartitions: created?.partitions ?? spec.numberOfPartitions,
      replicationFactor: created?.replicas ?? spec.replicationFactor,
      options,
    };
  }

  /** Deletes a topic; false when it does not exist. */
  async delete(name: string): Promise<boolean> {
    if (!(await this.exists(name))) return false;
    try {
      await this.#admin.deleteTopics({ topics: [name] });
      await this.#settle(name, false);
      return true;
    } catch (err) {
      if (isUnknownTopic(err)) return false;
      throw err;
    }
  }

  /**
   * The controller answers before the brokers' metadata shows the change; wait (briefly) until it
   * does, so that a describe, produce or consume right after a 201/204 sees the topic as created/gone.
   */
  async #settle(name: string, present: boolean): Promise<void> {
    const deadline = Date.now() + settleMs;
    while (Date.now() < deadline) {
      if (present) {
        try {
          const metadata = await this.#admin.metadata({ topics: [name], forceUpdate: true, retries: 0 });
          const topic = metadata.topics.get(name);
          if (topic && topic.partitions.every((p) => p.leader >= 0)) return;
        } catch (err) {
          if (!isUnknownTopic(err)) throw err;
        }
      } else if (!(await this.exists(name))) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Resolves when the cluster answers a metadata request (the readiness probe). */
  async ping(): Promise<void> {
    await this.#admin.metadata({ topics: [], forceUpdate: true, retries: 0 });
  }

  async close(): Promise<void> {
    await this.#admin.close();
  }
}
