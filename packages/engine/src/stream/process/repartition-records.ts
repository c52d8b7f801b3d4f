import type { RoutedRecord } from '../../tasks/index.ts';

/**
 * Repartition records (docs/engine.md, "Repartition and changelog topics"): a routed event on its
 * way to a correlation stage, keyed by its group, in an envelope that also carries its origin.
 */

/** The partition of a group key: FNV-1a of its UTF-8 text, so every node and thread agrees. */
export function partitionOf(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}

/** The input record a routed event came from: what its dead letters carry (docs/engine.md, "Dead letters"). */
export interface RoutedOrigin {
  readonly topic: string;
  readonly partition: number;
  readonly offset: bigint;
  readonly value: Buffer | undefined;
  readonly timestamp: bigint;
}

/** What a repartition record carries: the stage, the event as it reaches the stage, its time and the source record's key. */
interface Envelope {
  readonly s: string;
  readonly p: number;
  readonly t: number;
  readonly e: RoutedRecord['event'];
  /** The source record's key, base64, or null. */
  readonly k: string | null;
  /**
   * The routed record's timestamp (ms). Repartition topics keep LogAppendTime, so that a replay of old
   * events is not deleted by retention before it is read; the record's own time travels here.
   */
  readonly r?: number;
  /** The source record (absent for events a window closed by the clock emitted): [topic, partition, offset, value base64, timestamp]. */
  readonly o?: [string, number, string, string | null, string];
}

export function encodeRouted(
  routed: RoutedRecord,
  sourceKey: Buffer | null | undefined,
  origin?: RoutedOrigin,
): Buffer {
  const envelope: Envelope = {
    s: routed.stage,
    p: routed.pdlStage,
    t: routed.time,
    e: routed.event,
    k: sourceKey ? sourceKey.toString('base64') : null,
    r: routed.timestamp,
  };
  if (origin) {
    (envelope as { o?: Envelope['o'] }).o = [
      origin.topic,
      origin.partition,
      String(origin.offset),
      origin.value ? origin.value.toString('base64') : null,
      String(origin.timestamp),
    ];
  }
  return Buffer.from(JSON.stringify(envelope));
}

/** The routed record of a repartition record, the source record's key and origin; throws on a record that is not one. */
export function decodeRouted(
  value: Buffer,
  key: Buffer | null | undefined,
  timestamp: number,
): { routed: RoutedRecord; sourceKey: Buffer | undefined; origin: RoutedOrigin | undefined } {
  const e = JSON.parse(value.toString('utf8')) as Envelope;
  if (
    typeof e.s !== 'string' ||
    typeof e.p !== 'number' ||
    typeof e.t !== 'number' ||
    typeof e.e !== 'object' ||
    e.e === null
  ) {
    throw new Error('not a Weir repartition record');
  }
  const o = e.o;
  const origin =
    Array.isArray(o) && o.length === 5
      ? {
          topic: o[0],
          partition: o[1],
          offset: BigInt(o[2]),
          value: o[3] === null ? undefined : Buffer.from(o[3], 'base64'),
          timestamp: BigInt(o[4]),
        }
      : undefined;
  return {
    routed: {
      stage: e.s,
      pdlStage: e.p,
      time: e.t,
      event: e.e,
      key: key ? key.toString('utf8') : '[]',
      timestamp: typeof e.r === 'number' ? e.r : timestamp,
    },
    sourceKey: e.k === null ? undefined : Buffer.from(e.k, 'base64'),
    origin,
  };
}
