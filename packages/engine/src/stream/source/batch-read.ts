import type { MessagesStream } from '@platformatic/kafka';
import type { FetchedRecord } from '../records.ts';
import type { Wakeup } from '../wakeup.ts';
import type { PartitionQueues } from './partition-queues.ts';

/**
 * The next batch from the consumer's stream: what it has buffered goes into the partitions' queues
 * (up to twice `max` records), and up to `size(queued)` records (at most `max`; `queued`: the
 * records waiting in the queues) are taken fairly from them, at once: a batch never waits to fill.
 * With nothing buffered, waits for records (the first that arrive are the batch), at most a second,
 * or until a wake (a new plan, a stop): then the batch is empty. An error of the stream rejects;
 * its close gives an empty batch.
 */
export function readBatch(
  stream: MessagesStream<Buffer, Buffer, Buffer, Buffer>,
  queues: PartitionQueues<FetchedRecord>,
  max: number,
  wakeup: Wakeup,
  size: (queued: number) => number = () => max,
): Promise<FetchedRecord[]> {
  const fill = () => {
    let m: FetchedRecord | null;
    while (queues.size < 2 * max && (m = stream.read() as FetchedRecord | null) !== null) queues.push(m);
  };
  const take = () => queues.take(Math.min(max, size(queues.size)));
  fill();
  if (queues.size > 0) return Promise.resolve(take());
  return new Promise((resolve, reject) => {
    const done = () => {
      stream.off('readable', onReadable);
      stream.off('error', onError);
      stream.off('close', onClose);
      wakeup.set(undefined);
      clearTimeout(timer);
    };
    const onReadable = () => {
      fill();
      if (queues.size > 0) {
        done();
        resolve(take());
      }
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onClose = () => {
      done();
      resolve([]);
    };
    // Wake up for a new plan or a stop even when no record arrives.
    wakeup.set(() => {
      done();
      resolve([]);
    });
    const timer = setTimeout(() => {
      done();
      resolve([]);
    }, 1000);
    stream.on('readable', onReadable);
    stream.once('error', onError);
    stream.once('close', onClose);
  });
}
