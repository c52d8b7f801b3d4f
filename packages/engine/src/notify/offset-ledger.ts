/** One partition's records read and not yet committed: each with the deliveries it still waits for. */
interface Entry {
  readonly offset: bigint;
  pending: number;
}

/**
 * Which offsets the notify consumer may commit (docs/alerts.md, "Notifications"): a record's offset
 * is committed only once every delivery of it and of every record before it in its partition ended
 * (sent or dead-lettered), so a crash or a lost node redelivers what was not finished and nothing
 * is lost. Records are admitted in offset order per partition; one read again (after a rebalance
 * or a restart of the consumer) is recognised and not admitted twice.
 */
export class OffsetLedger {
  readonly #partitions = new Map<string, { entries: Entry[]; next: bigint; committed: bigint | undefined }>();

  /** Admits a record with `deliveries` deliveries to wait for; false when it was admitted already. */
  admit(topic: string, partition: number, offset: bigint, deliveries: number): boolean {
    const key = `${topic}\u0000${partition}`;
    let p = this.#partitions.get(key);
    if (!p) this.#partitions.set(key, (p = { entries: [], next: offset, committed: undefined }));
    if (offset < p.next) return false;
    p.next = offset + 1n;
    p.entries.push({ offset, pending: deliveries });
    return true;
  }

  /** One delivery of a record ended. */
  settle(topic: string, partition: number, offset: bigint): void {
    const entry = this.#partitions.get(`${topic}\u0000${partition}`)?.entries.find((e) => e.offset === offset);
    if (entry && entry.pending > 0) entry.pending--;
  }

  /**
   * The offsets to commit now (the next offset to read, per partition) where they moved since the
   * last call: after the longest run of finished records at the head of each partition.
   */
  takeCommits(): { topic: string; partition: number; offset: bigint }[] {
    const out: { topic: string; partition: number; offset: bigint }[] = [];
    for (const [key, p] of this.#partitions) {
      let head: bigint | undefined;
      while (p.entries.length > 0 && p.entries[0]!.pending === 0) head = p.entries.shift()!.offset + 1n;
      if (head === undefined || (p.committed !== undefined && head <= p.committed)) continue;
      p.committed = head;
      const at = key.lastIndexOf('\u0000');
      out.push({ topic: key.slice(0, at), partition: Number(key.slice(at + 1)), offset: head });
    }
    return out;
  }

  /** Records admitted whose deliveries have not all ended. */
  get inFlight(): number {
    let n = 0;
    for (const p of this.#partitions.values()) for (const e of p.entries) if (e.pending > 0) n++;
    return n;
  }

  /** Forgets the partitions not in `kept` (`topic\u0000partition` keys): their next owner reads them from the committed offsets. */
  retainOnly(kept: ReadonlySet<string>): string[] {
    const dropped: string[] = [];
    for (const key of this.#partitions.keys())
      if (!kept.has(key)) {
        this.#partitions.delete(key);
        dropped.push(key);
      }
    return dropped;
  }
}
