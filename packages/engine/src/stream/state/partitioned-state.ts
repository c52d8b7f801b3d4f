import {
  InMemoryCorrelationStateStore,
  type CorrelationGroupState,
  type CorrelationStateStore,
  type StageClock,
} from '@weir/pdl';
import type { OutgoingRecord } from '../records.ts';

/** The state of one partition of a stage's repartition topic, and what its changelog still lacks. */
class PartitionState {
  readonly store = new InMemoryCorrelationStateStore();
  /** Changelog key → [scope, group key] of groups changed since the last drain. */
  readonly dirty = new Map<string, readonly [string, string]>();
  /** Stream time per scope as last written to the changelog. */
  readonly persistedTime = new Map<string, number>();
  readonly changelog: string;
  readonly partition: number;

  constructor(changelog: string, partition: number) {
    this.changelog = changelog;
    this.partition = partition;
  }
}

const partKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/**
 * The correlation state of a stream worker: one in-memory store per partition of each stage's
 * repartition topic, each backed by the stage's compacted changelog topic (same partition number).
 * The worker selects the partition of the record it processes; every change is remembered and
 * written to the changelog with the batch (`drain`), inside its transaction under exactly_once_v2.
 * A partition assigned to the worker is restored from its changelog (`restore`) before its records
 * are processed; a revoked one is dropped. Outside a selected partition (never in the worker's
 * normal path) a local store without changelog is used.
 *
 * Changelog records: key `["<scope>","<group key>"]` → the group's state as JSON, or a tombstone
 * when the group is gone; key `["<scope>"]` → `{"time": <stream time>}`.
 */
export class PartitionedStateStore implements CorrelationStateStore {
  readonly #parts = new Map<string, PartitionState>();
  readonly #local = new InMemoryCorrelationStateStore();
  #current: PartitionState | undefined;

  /** Makes a partition's store the current one; false when the partition is not open (not restored). */
  select(topic: string, partition: number): boolean {
    this.#current = this.#parts.get(partKey(topic, partition));
    return this.#current !== undefined;
  }

  deselect(): void {
    this.#current = undefined;
  }

  has(topic: string, partition: number): boolean {
    return this.#parts.has(partKey(topic, partition));
  }

  /** Opens an empty partition store (then fill it with `restore`). */
  open(topic: string, partition: number, changelog: string): void {
    this.#parts.set(partKey(topic, partition), new PartitionState(changelog, partition));
  }

  /** Forgets a partition (revoked: its next owner restores it from the changelog). */
  drop(topic: string, partition: number): void {
    const key = partKey(topic, partition);
    if (this.#current === this.#parts.get(key)) this.#current = undefined;
    this.#parts.delete(key);
  }

  /** Open partitions, as [repartition topic, partition]. */
  *partitions(): Iterable<readonly [string, number]> {
    for (const key of this.#parts.keys()) {
      const at = key.lastIndexOf('\u0000');
      yield [key.slice(0, at), Number(key.slice(at + 1))];
    }
  }

  /** Applies one changelog record to a partition being restored. */
  restore(topic: string, partition: number, key: Buffer, value: Buffer | null): void {
    const part = this.#parts.get(partKey(topic, partition));
    if (!part) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(key.toString('utf8'));
    } catch {
      return;
    }
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') return;
    const scope = parsed[0];
    if (parsed.length === 1) {
      if (value === null) return;
      const time = (JSON.parse(value.toString('utf8')) as { time?: unknown }).time;
      if (typeof time !== 'number') return;
      const clock = part.store.clock(scope);
      clock.time = time;
      clock.sweptAt = time;
      clock.nextClose = -Infinity;
      part.persistedTime.set(scope, time);
    } else if (typeof parsed[1] === 'string') {
      if (value === null) part.store.delete(scope, parsed[1]);
      else part.store.set(scope, parsed[1], JSON.parse(value.toString('utf8')) as CorrelationGroupState);
    }
  }

  /** Appends the changelog records of every change since the last drain to `out`. */
  drain(out: OutgoingRecord[]): void {
    for (const part of this.#parts.values()) {
      for (const [changelogKey, [scope, key]] of part.dirty) {
        const state = part.store.get(scope, key);
        out.push({
          topic: part.changelog,
          partition: part.partition,
          key: Buffer.from(changelogKey),
          value: state === undefined ? null! : Buffer.from(JSON.stringify(state)),
        });
      }
      part.dirty.clear();
      for (const scope of part.store.scopes()) {
        const time = part.store.clock(scope).time;
        if (time === -Infinity || part.persistedTime.get(scope) === time) continue;
        part.persistedTime.set(scope, time);
        out.push({
          topic: part.changelog,
          partition: part.partition,
          key: Buffer.from(JSON.stringify([scope])),
          value: Buffer.from(JSON.stringify({ time })),
        });
      }
    }
  }

  /** Groups held, over every partition (for the metrics and the benchmarks). */
  groups(): number {
    let n = 0;
    for (const part of this.#parts.values()) for (const scope of part.store.scopes()) n += part.store.size(scope);
    return n;
  }

  get(scope: string, key: string): CorrelationGroupState | undefined {
    return (this.#current?.store ?? this.#local).get(scope, key);
  }

  set(scope: string, key: string, state: CorrelationGroupState): void {
    const part = this.#current;
    if (part === undefined) return this.#local.set(scope, key, state);
    part.store.set(scope, key, state);
    part.dirty.set(JSON.stringify([scope, key]), [scope, key]);
  }

  delete(scope: string, key: string): void {
    const part = this.#current;
    if (part === undefined) return this.#local.delete(scope, key);
    part.store.delete(scope, key);
    part.dirty.set(JSON.stringify([scope, key]), [scope, key]);
  }

  size(scope: string): number {
    return (this.#current?.store ?? this.#local).size(scope);
  }

  entries(scope: string): Iterable<readonly [string, CorrelationGroupState]> {
    return (this.#current?.store ?? this.#local).entries(scope);
  }

  clock(scope: string): StageClock {
    return (this.#current?.store ?? this.#local).clock(scope);
  }
}
