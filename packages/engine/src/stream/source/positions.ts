import { partitionKey, type FetchedRecord } from '../records.ts';

/** A batch as admitted for processing (see Positions.admit). */
export interface Admitted {
  /** The records to process, in order: those of assigned partitions not processed before. */
  readonly records: FetchedRecord[];
  /** The last admitted record per partition (`topic\0partition`): its offset + 1 is committed once written. */
  readonly last: Map<string, FetchedRecord>;
  /** Each partition's position before the batch, to go back to when its transaction is aborted. */
  readonly before: Map<string, bigint | undefined>;
  /** Records that skipped offsets after the position (deleted by retention before they were read? or control records, compaction). */
  readonly gaps: { readonly record: FetchedRecord; readonly next: bigint }[];
}

/** A new assignment: every partition assigned now and those that were not before. */
export interface AssignmentChange {
  /** The consumer's assignment, per topic. */
  readonly assignments: readonly { readonly topic: string; readonly partitions: readonly number[] }[];
  readonly assigned: ReadonlySet<string>;
  readonly gained: readonly string[];
}

/**
 * What the source has processed: the next offset to process per assigned partition (a record
 * below it was processed already, re-fetched after a rebalance, and is skipped) and the
 * assignment the worker last took in (null before the first, or after a failed restore).
 */
export class Positions {
  readonly #next = new Map<string, bigint>();
  #assigned: Set<string> | null = null;

  /** The change against the consumer's assignment now, or undefined when it is the one taken in. */
  change(assignments: readonly { readonly topic: string; readonly partitions: readonly number[] }[]) {
    const assigned = new Set<string>();
    for (const { topic, partitions } of assignments) for (const p of partitions) assigned.add(partitionKey(topic, p));
    const previous = this.#assigned;
    if (previous && previous.size === assigned.size && [...assigned].every((k) => previous.has(k))) return undefined;
    const change: AssignmentChange = { assignments, assigned, gained: [...assigned].filter((k) => !previous?.has(k)) };
    return change;
  }

  /** Takes in an assignment: positions of partitions it lost are forgotten. */
  adopt(assigned: ReadonlySet<string>): void {
    this.#assigned = new Set(assigned);
    for (const key of [...this.#next.keys()]) if (!assigned.has(key)) this.#next.delete(key);
  }

  /** The assignment is to be taken in again at the next batch. */
  forgetAssignment(): void {
    this.#assigned = null;
  }

  /** Filters a fetched batch (records of partitions moved away, or processed already) and moves the positions past it. */
  admit(batch: readonly FetchedRecord[]): Admitted {
    const admitted: Admitted = { records: [], last: new Map(), before: new Map(), gaps: [] };
    const assigned = this.#assigned;
    for (const record of batch) {
      const key = partitionKey(record.topic, record.partition);
      // a partition that moved to another worker: its next owner reads it from the committed offset
      if (assigned && !assigned.has(key)) continue;
      // read again after a rebalance that left the partition here: processed already
      const position = this.#next.get(key);
      if (position !== undefined && record.offset < position) continue;
      if (!admitted.before.has(key)) admitted.before.set(key, position);
      if (position !== undefined && record.offset > position) admitted.gaps.push({ record, next: position });
      this.#next.set(key, record.offset + 1n);
      admitted.last.set(key, record);
      admitted.records.push(record);
    }
    return admitted;
  }

  /** Back to where a batch started (its transaction was aborted); the assignment is taken in again. */
  rollBack(before: ReadonlyMap<string, bigint | undefined>): void {
    for (const [key, position] of before) {
      if (position === undefined) this.#next.delete(key);
      else this.#next.set(key, position);
    }
    this.#assigned = null;
  }

  /** A partition's committed offset, read after it was gained: records below it are skipped. */
  committed(topic: string, partition: number, offset: bigint | undefined): void {
    const key = partitionKey(topic, partition);
    if (offset !== undefined && offset > 0n && offset > (this.#next.get(key) ?? -1n)) this.#next.set(key, offset);
  }

  /** The next offset to process on a partition, when known. */
  of(topic: string, partition: number): bigint | undefined {
    return this.#next.get(partitionKey(topic, partition));
  }

  /** The consumer closed: everything is read again from the committed offsets. */
  clear(): void {
    this.#next.clear();
    this.#assigned = null;
  }
}
