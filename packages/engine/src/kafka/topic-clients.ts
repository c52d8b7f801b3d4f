import type { Settings } from '../config/settings.ts';
import { kafkaConnection } from './client-options.ts';
import { ConsumeSessions } from './consume-sessions.ts';
import { ConsumerGroups } from './consumer-groups.ts';
import { TopicAdmin } from './topic-admin.ts';
import { TopicDetails } from './topic-details.ts';
import { TopicProducer } from './topic-producer.ts';
import { TopicTails, type TailRequest, type TailSink } from './topic-tails.ts';

/** A live tail as its endpoint holds it. */
export interface OpenTail {
  resume(): void;
  close(reason: string): Promise<void>;
}

/**
 * What the topic endpoints use of their Kafka clients: the node's TopicClients below, or in-memory
 * topics in the route unit tests (test/helpers/in-process-node.ts).
 */
export interface TopicPorts {
  readonly bootstrap: string;
  readonly admin: Pick<TopicAdmin, 'list' | 'exists' | 'describe' | 'create' | 'delete' | 'ping'>;
  readonly producer: Pick<TopicProducer, 'send'>;
  readonly consumers: Pick<ConsumeSessions, 'open' | 'read' | 'size'>;
  readonly tails: { open(username: string, topic: string, request: TailRequest, sink: TailSink): Promise<OpenTail> };
  /** A topic in depth: partitions, offsets, sizes, settings; and changing them. */
  readonly details: Pick<TopicDetails, 'partitions' | 'settings' | 'changeSettings' | 'addPartitions' | 'purge'>;
  readonly groups: Pick<ConsumerGroups, 'list' | 'describe' | 'lags' | 'resetOffsets' | 'delete'>;
  close(): Promise<void>;
}

/** The Kafka clients behind the topic endpoints of one node; each connects on first use. */
export class TopicClients implements TopicPorts {
  readonly admin: TopicAdmin;
  readonly producer: TopicProducer;
  readonly consumers: ConsumeSessions;
  readonly tails: TopicTails;
  readonly details: TopicDetails;
  readonly groups: ConsumerGroups;
  readonly bootstrap: string;

  constructor(settings: Settings) {
    const appId = settings.get('weir.application.id');
    this.bootstrap = settings.get('bootstrap.servers');
    this.admin = new TopicAdmin(kafkaConnection(settings, `${appId}-topics-admin`));
    this.producer = new TopicProducer(kafkaConnection(settings, `${appId}-topics-producer`));
    this.consumers = new ConsumeSessions(kafkaConnection(settings, `${appId}-topics-consumer`), appId, {
      maxSessionsPerUser: settings.get('weir.topics.consume.max-sessions-per-user'),
      idleSeconds: settings.get('weir.topics.consume.idle-seconds'),
      maxBytes: settings.get('weir.topics.consume.max-bytes'),
    });
    this.details = new TopicDetails(kafkaConnection(settings, `${appId}-topics-details`));
    this.groups = new ConsumerGroups(kafkaConnection(settings, `${appId}-groups-admin`));
    this.tails = new TopicTails(
      kafkaConnection(settings, `${appId}-topics-tail`),
      appId,
      settings.get('weir.topics.tail.max-per-user'),
    );
  }

  async close(): Promise<void> {
    await Promise.allSettled([
      this.details.close(),
      this.groups.close(),
      this.tails.close(),
      this.consumers.close(),
      this.producer.close(),
      this.admin.close(),
    ]);
  }
}
