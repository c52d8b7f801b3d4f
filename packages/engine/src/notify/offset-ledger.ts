/** A record of a partition whose deliveries have not all ended. */
interface Entry {
  readonly offset: bigint;
  pending: number;
}

interface PartitionLedger {
  /** The records still waiting for deliveries, in offset order (records without any are not kept). */
  readonly entries: Entry[];
  /** The offset after the last record admitted. */
  next: bigint;
  /** The offset last handed out to commit (at first: the first admitted, where reading started). */
  committed: bigint;
}

/**
 * Which offsets the notify consumer may commit (docs/alerts.md, "Notifications"): a record's offset
 * is committed only once every delivery of it and of every record before it in its partition ended
 * (sent or dead-lettered), so a crash or a lost node redelivers what was not finished and nothing
 * is lost. Records are admitted in offset order per partition; one read again (after a rebalance
 * or a restart of the consumer) is recognised and not admitted twice. Only the records still
 * waiting are kept, so memory follows the deliveries in flight, not the records read behind them.
 */
export class OffsetLedger {
  readonly #partitions = new Map<string, PartitionLedger>();

  /** Admits a record with `deliveries` deliveries to wait for; false when it was admitted already. */
  admit(topic: string, partition: number, offset: bigint, deliveries: number): boolean {
    const key = `${topic}\u0000${partition}`;
    let p = this.#partitions.get(key);
    if (!p) this.#partitions.set(key, (p = { entries: [], next: offset, committed: offset }));
    if (offset < p.next) return false;
    p.next = offset + 1n;
    if (deliveries > 0) p.entries.push({ offset, pending: deliveries });
    return true;
  }

  /** One delivery of a record ended. */
  settle(topic: string, partition: number, offset: bigint): void {
    const entries = this.#partitions.get(`${topic}\u0000${partition}`)?.entries;
    const at = entries?.findIndex((e) => e.offset === offset) ?? -1;
    if (at < 0) return;
    if (--entries![at]!.pending <= 0) entries!.splice(at, 1);
  }

  /**
   * The offsets to commit now (the next offset to read, per partition) where they moved since the
   * last call: the first record still waiting, or past the last record read when none waits.
   */
  takeCommits(): { topic: string; partition: number; offset: bigint }[] {
    const out: { topic: string; partition: number; offset: bigint }[] = [];
    for (const [key, p] of this.#partitions) {
      const head = p.entries[0]?.offset ?? p.next;
      if (head <= p.committed) continue;
      p.committed = head;
      const at = key.lastIndexOf('\u0000');
      out.push({ topic: key.slice(0, at), partition: Number(key.slice(at + 1)), offset: head });
    }
    return out;
  }

  /** Records admitted whose deliveries have not all ended. */
  get inFlight(): number {
    let n = 0;
    for (const p of this.#partitions.values()) n += p.entries.length;
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
