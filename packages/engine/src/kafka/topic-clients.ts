import type { Settings } from '../config/settings.ts';
import { kafkaConnection } from './client-options.ts';
import { ConsumeSessions } from './consume-sessions.ts';
import { TopicAdmin } from './topic-admin.ts';
import { TopicProducer } from './topic-producer.ts';
import { TopicTails } from './topic-tails.ts';

/** The Kafka clients behind the topic endpoints of one node; each connects on first use. */
export class TopicClients {
  readonly admin: TopicAdmin;
  readonly producer: TopicProducer;
  readonly consumers: ConsumeSessions;
  readonly tails: TopicTails;
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
    this.tails = new TopicTails(
      kafkaConnection(settings, `${appId}-topics-tail`),
      appId,
      settings.get('weir.topics.tail.max-per-user'),
    );
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.tails.close(), this.consumers.close(), this.producer.close(), this.admin.close()]);
  }
}
