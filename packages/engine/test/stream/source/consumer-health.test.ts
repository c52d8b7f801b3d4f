import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import type { Consumer, MessagesStream } from '@platformatic/kafka';
import { ConsumerHealth, fetchSilenceMs } from '../../../src/stream/source/consumer-health.ts';

type BufferConsumer = Consumer<Buffer, Buffer, Buffer, Buffer>;

/** The events and the assignment a consumer shows to ConsumerHealth (the client emits them; here the test does). */
function consumerShowing(
  partitions: number[],
): EventEmitter & { assignments: { topic: string; partitions: number[] }[] } {
  return Object.assign(new EventEmitter(), { assignments: [{ topic: 'in', partitions }] });
}

const broker = { broker: { host: '127.0.0.1', port: 9092 } };

describe('ConsumerHealth: a consumer that stalls without an error is noticed', () => {
  test('a consumer holding partitions and fetching nothing for a minute has stalled; a fetch or a join is a sign of life', () => {
    const health = new ConsumerHealth(() => {});
    const consumer = consumerShowing([0, 1]);
    const stream = new EventEmitter();
    const started = Date.now();
    health.watchConsumer(consumer as unknown as BufferConsumer);
    health.watchStream(stream as unknown as MessagesStream<Buffer, Buffer, Buffer, Buffer>);
    const c = consumer as unknown as BufferConsumer;
    assert.equal(health.failure(c, started + fetchSilenceMs - 1000), undefined);
    assert.match(
      health.failure(c, started + fetchSilenceMs + 5000) ?? '',
      /^the consumer fetched nothing for 6\d s while holding partitions$/,
    );
    stream.emit('fetch');
    assert.equal(health.failure(c, Date.now() + 1000), undefined, 'an answered fetch');
    consumer.emit('consumer:group:join');
    assert.equal(health.failure(c, Date.now() + fetchSilenceMs - 1000), undefined, 'a join');
  });

  test('a consumer that holds no partition does not fetch, and is not stalled', () => {
    const health = new ConsumerHealth(() => {});
    const consumer = consumerShowing([]);
    health.watchConsumer(consumer as unknown as BufferConsumer);
    assert.equal(health.failure(consumer as unknown as BufferConsumer, Date.now() + 10 * fetchSilenceMs), undefined);
  });

  test('only a broker the consumer was connected to counts as lost; the worker is woken', () => {
    let woken = 0;
    const health = new ConsumerHealth(() => woken++);
    const consumer = consumerShowing([0]);
    health.watchConsumer(consumer as unknown as BufferConsumer);
    consumer.emit('client:broker:failed', broker);
    assert.equal(health.connectionLost, undefined, 'a connection attempt that failed');
    assert.equal(woken, 0);
    consumer.emit('client:broker:connect', broker);
    consumer.emit('client:broker:disconnect', broker);
    assert.equal(health.connectionLost, 'the connection to a broker closed');
    assert.equal(health.failure(consumer as unknown as BufferConsumer), 'the connection to a broker closed');
    assert.equal(woken, 1);
    // a new consumer starts healthy
    health.watchConsumer(consumerShowing([0]) as unknown as BufferConsumer);
    assert.equal(health.connectionLost, undefined);
  });

  test("the consumer's own 'error' (a rejoin after a failed heartbeat failed: no more heartbeats) fails the worker instead of its thread", () => {
    let woken = 0;
    const health = new ConsumerHealth(() => woken++);
    const consumer = consumerShowing([0]);
    health.watchConsumer(consumer as unknown as BufferConsumer);
    // the client emits it from a callback: with no listener, an uncaught exception that ends the worker thread
    assert.doesNotThrow(() => consumer.emit('error', new Error('Connection closed')));
    assert.equal(health.connectionLost, 'the consumer failed: Connection closed');
    assert.equal(health.failure(consumer as unknown as BufferConsumer), 'the consumer failed: Connection closed');
    assert.equal(woken, 1);
  });
});
