import type { RouteBundleHint, RoutedRecord } from '../../tasks/index.ts';
import type { OutgoingRecord, SourceRecord } from '../records.ts';

/**
 * Route bundles (docs/engine.md, "Repartition and changelog topics"): the routes of one batch that
 * come from one input partition and go to one partition of a stage's repartition topic, with the
 * same stage and bundle group (a suppression's alerts: RoutedRecord.bundle), travel as one
 * repartition record that lists them in their order (up to `bundleBytes`, then the next one starts,
 * as at a batch's end). The stage resumes them one by one, as it would
 * resume as many records, so nothing depends on where a batch ends: a replay whose batches end
 * elsewhere makes other bundles of the same routes, and each input record is still recognised by
 * its partition and offset. A route that cannot need its event at the stage (RouteBundleHint) is
 * listed without it; every route keeps its input record (offset, key, value, timestamp) for its
 * dead letters and its `_alert.source`.
 *
 * The record: a 0 byte (an envelope of repartition-records.ts begins with `{`), the length of the
 * header (4 bytes, big-endian), the header as JSON
 * `{"s": <stage>, "p": <PDL stage>, "g": <bundle group>, "o": [<input topic>, <partition>], "m": [<member>…]}`
 * with a member `[<event time>, <record timestamp>, <input offset>, <input record timestamp>, <key bytes or -1>, <value bytes or -1>, <event bytes or -1: left out>, <group key>]`,
 * then each member's input key, input value and event JSON, in that order.
 */

interface Member {
  readonly routed: RoutedRecord;
  readonly source: SourceRecord;
  /** Its event's JSON; undefined: left out. */
  readonly event: Buffer | undefined;
}

/**
 * A bundle holds at most this many bytes of keys, values and events (then the next one starts, as at
 * a batch's end): a record stays well under the broker's default message size limit (1 MiB).
 */
export const bundleBytes = 256 * 1024;

interface Bundle {
  readonly topic: string;
  readonly partition: number;
  readonly routed: RoutedRecord;
  readonly group: string;
  readonly source: SourceRecord;
  readonly members: Member[];
  /** The latest time of the members so far. */
  maxTime: number;
  /** Per window, the latest time of its members so far. */
  readonly windows: Map<string, number>;
  bytes: number;
}

/** A bundle member as the stage reads it: the routed record (its `origin` set) and its input record. */
export interface BundledRoute {
  readonly routed: RoutedRecord;
  readonly source: SourceRecord;
}

/** The routes of one batch, bundled; `drain` writes them. */
export class RouteBundles {
  /** The bundle being filled, per stage partition, stage, group and input partition. */
  readonly #open = new Map<string, Bundle>();
  /** Every bundle, in the order of their first routes. */
  #all: Bundle[] = [];

  get size(): number {
    return this.#all.length;
  }

  /** Adds a route (its bundle hint `hint`) from `source` to `partition` of the repartition topic `topic`. */
  add(topic: string, partition: number, routed: RoutedRecord, hint: RouteBundleHint, source: SourceRecord): void {
    const id = `${topic}\u0000${partition}\u0000${routed.stage}\u0000${routed.pdlStage}\u0000${hint.group}\u0000${source.topic}\u0000${source.partition}`;
    let bundle = this.#open.get(id);
    if (bundle === undefined || bundle.bytes >= bundleBytes) {
      bundle = {
        topic,
        partition,
        routed,
        group: hint.group,
        source,
        members: [],
        maxTime: -Infinity,
        windows: new Map(),
        bytes: 0,
      };
      this.#open.set(id, bundle);
      this.#all.push(bundle);
    }
    const latest = bundle.windows.get(hint.window);
    const elided = latest !== undefined && routed.time >= latest && bundle.maxTime < hint.closeFloor;
    if (latest === undefined || routed.time > latest) bundle.windows.set(hint.window, routed.time);
    if (routed.time > bundle.maxTime) bundle.maxTime = routed.time;
    const event = elided ? undefined : Buffer.from(JSON.stringify(routed.event));
    bundle.bytes += (source.key?.length ?? 0) + (source.value?.length ?? 0) + (event?.length ?? 0);
    bundle.members.push({ routed, source, event });
  }

  /** Appends one repartition record per bundle (in the order of their first routes) to `out`, and starts over. */
  drain(out: OutgoingRecord[]): void {
    for (const bundle of this.#all) {
      out.push({
        topic: bundle.topic,
        partition: bundle.partition,
        key: Buffer.from(bundle.routed.stage),
        value: encodeBundle(bundle),
        timestamp: BigInt(bundle.routed.timestamp),
      });
    }
    this.#open.clear();
    this.#all = [];
  }
}

function encodeBundle(bundle: Bundle): Buffer {
  const parts: Buffer[] = [];
  const members: unknown[] = [];
  for (const { routed, source, event } of bundle.members) {
    const key = source.key ?? undefined;
    const value = source.value ?? undefined;
    members.push([
      routed.time,
      routed.timestamp,
      Number(source.offset),
      Number(source.timestamp),
      key ? key.length : -1,
      value ? value.length : -1,
      event ? event.length : -1,
      routed.key,
    ]);
    if (key) parts.push(key);
    if (value) parts.push(value);
    if (event) parts.push(event);
  }
  const header = Buffer.from(
    JSON.stringify({
      s: bundle.routed.stage,
      p: bundle.routed.pdlStage,
      g: bundle.group,
      o: [bundle.source.topic, bundle.source.partition],
      m: members,
    }),
  );
  const head = Buffer.allocUnsafe(5);
  head[0] = 0;
  head.writeUInt32BE(header.length, 1);
  return Buffer.concat([head, header, ...parts]);
}

/** Whether a repartition record's value is a bundle (else an envelope of repartition-records.ts). */
export function isBundle(value: Buffer): boolean {
  return value.length > 0 && value[0] === 0;
}

interface Header {
  readonly s: string;
  readonly p: number;
  readonly g: string;
  readonly o: [string, number];
  readonly m: [number, number, number, number, number, number, number, string][];
}

const bad = (why: string) => new Error(`not a Weir repartition bundle: ${why}`);

/** The routes of a bundle, in order, each with its input record; throws on a record that is not one. */
export function decodeBundle(value: Buffer): BundledRoute[] {
  if (value.length < 5 || value[0] !== 0) throw bad('no header');
  const length = value.readUInt32BE(1);
  if (5 + length > value.length) throw bad('header past the end');
  let h: Header;
  try {
    h = JSON.parse(value.toString('utf8', 5, 5 + length)) as Header;
  } catch (err) {
    throw bad((err as Error).message);
  }
  if (
    typeof h !== 'object' ||
    h === null ||
    typeof h.s !== 'string' ||
    typeof h.p !== 'number' ||
    typeof h.g !== 'string' ||
    !Array.isArray(h.o) ||
    typeof h.o[0] !== 'string' ||
    typeof h.o[1] !== 'number' ||
    !Array.isArray(h.m)
  )
    throw bad('header fields');
  const [topic, partition] = h.o;
  let at = 5 + length;
  const take = (n: number): Buffer | undefined => {
    if (n < 0) return undefined;
    if (at + n > value.length) throw bad('member past the end');
    const bytes = value.subarray(at, at + n);
    at += n;
    return bytes;
  };
  const routes: BundledRoute[] = [];
  for (const m of h.m) {
    if (
      !Array.isArray(m) ||
      m.length !== 8 ||
      !m.slice(0, 7).every((n) => typeof n === 'number') ||
      typeof m[7] !== 'string'
    )
      throw bad('member fields');
    const [time, timestamp, offset, sourceTimestamp, keyLength, valueLength, eventLength, key] = m;
    const sourceKey = take(keyLength);
    const sourceValue = take(valueLength);
    const event = take(eventLength);
    let parsed: RoutedRecord['event'] = {};
    try {
      if (event) parsed = JSON.parse(event.toString('utf8')) as RoutedRecord['event'];
    } catch (err) {
      throw bad((err as Error).message);
    }
    routes.push({
      routed: {
        stage: h.s,
        pdlStage: h.p,
        key,
        event: parsed,
        time,
        timestamp,
        origin: { topic, partition, offset },
        ...(event ? {} : { elided: { group: h.g } }),
      },
      source: {
        topic,
        partition,
        offset: BigInt(offset),
        key: sourceKey,
        value: sourceValue,
        timestamp: BigInt(sourceTimestamp),
      },
    });
  }
  if (at !== value.length) throw bad('bytes after the last member');
  return routes;
}
