import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';

/**
 * The stage tests' stand-in for a Kafka consumer in a group (the source, the batch round and the
 * worker loop take one through their client factories): no broker, the test sets its assignment,
 * pushes records on its stream and emits its group events.
 */

/** A consumer's stream: records pushed by the test, read as the client's stream is. */
export class FakeStream extends Readable {
  constructor() {
    super({ objectMode: true, read: () => {} });
  }
  close(): Promise<void> {
    this.destroy();
    return Promise.resolve();
  }
}

export class FakeConsumer extends EventEmitter {
  assignments: { topic: string; partitions: number[] }[] = [];
  readonly groupId = 'g';
  memberId = 'm1';
  generationId = 3;
  coordinatorId = 1;
  readonly stream = new FakeStream();
  /** The topics of the last consume(). */
  subscribed: string[] = [];
  /** When set, consume() assigns partition 0 of every topic at once (a group of one member). */
  assignOnConsume = false;
  closed = false;
  committed = new Map<string, bigint[]>();
  /** What getLag() answers: each topic's lag by partition. */
  lag = new Map<string, bigint[]>();

  consume(o: { topics: string[] }): Promise<FakeStream> {
    this.subscribed = o.topics;
    if (this.assignOnConsume) this.assignments = o.topics.map((topic) => ({ topic, partitions: [0] }));
    return Promise.resolve(this.stream);
  }
  listCommittedOffsets(): Promise<Map<string, bigint[]>> {
    return Promise.resolve(this.committed);
  }
  getLag(): Promise<Map<string, bigint[]>> {
    return Promise.resolve(this.lag);
  }
  fetch(): never {
    throw new Error('the stream fetches; a fake stream does not');
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}
