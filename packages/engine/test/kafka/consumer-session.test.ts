import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { Message } from '@platformatic/kafka';
import {
  ConsumerSession,
  type ConsumedMessage,
  type SessionConsumer,
  type SessionRequest,
  type SessionStream,
} from '../../src/kafka/consumer-session.ts';
import { deserialize } from '../../src/kafka/serde-codecs.ts';

/**
 * The session skeleton over a fake consumer (no broker: the broker-side behaviour of both users is
 * in test/kafka/consume-sessions.test.ts and test/integration/live-data.test.ts). The fake records
 * what the session does to it, in order; its stream is an EventEmitter fed by the test.
 */
class FakeStream extends EventEmitter implements SessionStream {
  readonly log: string[];
  readonly closeFails: boolean;
  constructor(log: string[], closeFails = false) {
    super();
    this.log = log;
    this.closeFails = closeFails;
  }
  pause() {
    this.log.push('stream.pause');
  }
  resume() {
    this.log.push('stream.resume');
  }
  async close() {
    this.log.push('stream.close');
    if (this.closeFails) throw new Error('stream close failed');
  }
}

function fakeConsumer(
  opening: Promise<void> = Promise.resolve(),
  options: { fails?: Error; closeFails?: boolean } = {},
) {
  const log: string[] = [];
  const stream = new FakeStream(log, options.closeFails);
  let onError: ((e: Error) => void) | undefined;
  const consumer: SessionConsumer = {
    async stream(topic, start, listen) {
      log.push(`stream ${topic} ${start.kind}`);
      await opening;
      if (options.fails) throw options.fails;
      onError = listen;
      return stream;
    },
    async close() {
      log.push('consumer.close');
    },
  };
  return { log, stream, consumer, fail: (e: Error) => onError?.(e) };
}

function recorder() {
  const messages: [ConsumedMessage, number][] = [];
  const ends: string[] = [];
  return {
    messages,
    ends,
    events: { message: (m: ConsumedMessage, b: number) => messages.push([m, b]), end: (r: string) => ends.push(r) },
  };
}

function message(partition: number, offset: number, value: string): Message {
  return {
    key: Buffer.from('k'),
    value: Buffer.from(value),
    partition,
    offset: BigInt(offset),
    timestamp: 1000n,
    headers: new Map(),
  } as unknown as Message;
}

const request: SessionRequest = { keyType: 'String', valueType: 'String', start: { kind: 'earliest', partition: 1 } };
const tick = () => new Promise((resolve) => setImmediate(resolve));

test('consumer session: messages of the chosen partition go to the owner with their bytes; a close ends it once, then stops the stream and the consumer', async () => {
  const fake = fakeConsumer();
  const seen = recorder();
  let connects = 0;
  const session = new ConsumerSession(request, seen.events, () => (connects++, fake.consumer));
  await session.start('orders');
  fake.stream.emit('data', message(0, 1, 'other partition'));
  fake.stream.emit('data', message(1, 2, 'hello'));
  assert.deepEqual(seen.messages, [[{ key: 'k', value: 'hello', partition: 1, offset: 2, timestamp: 1000 }, 6]]);
  assert.equal(session.reason, undefined);

  const closing = session.close('COMPLETED');
  assert.deepEqual(seen.ends, ['COMPLETED'], 'the owner hears the reason at once');
  assert.equal(session.close('another reason'), closing, 'every close returns the one shutdown');
  fake.stream.emit('data', message(1, 3, 'after the close'));
  await closing;
  assert.deepEqual(
    [session.reason, seen.ends, seen.messages.length, connects],
    ['COMPLETED', ['COMPLETED'], 1, 1],
    'the first reason stays; nothing is taken after the close',
  );
  assert.deepEqual(fake.log, ['stream orders earliest', 'stream.pause', 'stream.close', 'consumer.close']);
  session.resume();
  assert.equal(fake.log.at(-1), 'consumer.close', 'an ended session does not fetch again');
});

test('consumer session: a stream error or a message the serdes cannot read ends it with that text', async () => {
  const fake = fakeConsumer();
  const seen = recorder();
  const session = new ConsumerSession(request, seen.events, () => fake.consumer);
  await session.start('orders');
  fake.fail(new Error('Connection closed'));
  await session.close('ignored');
  assert.deepEqual(seen.ends, ['Connection closed']);

  const other = fakeConsumer();
  const heard = recorder();
  const ints = new ConsumerSession({ ...request, valueType: 'Integer' }, heard.events, () => other.consumer);
  await ints.start('numbers');
  other.stream.emit('data', message(1, 7, 'abc'));
  let serdeText = '';
  try {
    deserialize('Integer', Buffer.from('abc'));
  } catch (err) {
    serdeText = (err as Error).message;
  }
  assert.ok(serdeText, 'three bytes are no Integer');
  assert.deepEqual([heard.ends, heard.messages], [[`${serdeText} (partition 1, offset 7)`], []]);
  await ints.close('again');
  assert.deepEqual(other.log.slice(-2), ['stream.close', 'consumer.close']);
});

test('consumer session: a close while starting waits for the start, then stops what it made; a closed session starts nothing', async () => {
  let open!: () => void;
  const fake = fakeConsumer(new Promise<void>((resolve) => (open = resolve)));
  const seen = recorder();
  const session = new ConsumerSession(request, seen.events, () => fake.consumer);
  const starting = session.start('orders');
  const closing = session.close('replaced');
  assert.deepEqual(seen.ends, ['replaced']);
  await tick();
  await tick();
  assert.deepEqual(fake.log, ['stream orders earliest'], 'the consumer is not closed in the middle of its start');
  open();
  await starting;
  await closing;
  assert.deepEqual(fake.log, ['stream orders earliest', 'stream.pause', 'stream.close', 'consumer.close']);
  assert.equal(fake.stream.listenerCount('data'), 0, 'no message is taken from a stream made for a closed session');

  let connects = 0;
  const never = new ConsumerSession(request, recorder().events, () => (connects++, fakeConsumer().consumer));
  await never.close('closed first');
  await never.start('orders');
  assert.equal(connects, 0);
});

test('consumer session: a failed start rejects and its close still closes the consumer; a stream that fails to close does not keep the consumer open', async () => {
  const fake = fakeConsumer(Promise.resolve(), { fails: new RangeError('partition 3 does not exist') });
  const seen = recorder();
  const session = new ConsumerSession(request, seen.events, () => fake.consumer);
  await assert.rejects(session.start('orders'), RangeError);
  await session.close('closed');
  assert.deepEqual(fake.log, ['stream orders earliest', 'consumer.close']);

  const stubborn = fakeConsumer(Promise.resolve(), { closeFails: true });
  const other = new ConsumerSession(request, recorder().events, () => stubborn.consumer);
  await other.start('orders');
  other.pause();
  await other.close('closed');
  assert.deepEqual(stubborn.log, [
    'stream orders earliest',
    'stream.pause',
    'stream.pause',
    'stream.close',
    'consumer.close',
  ]);
});
