/** A queue drops the records taken from its front once this many are taken and they are at least half of it. */
const compactAfter = 1024;

interface Queue<M> {
  items: M[];
  head: number;
}

/**
 * Records read from the consumer, waiting per partition. A batch takes an equal share from every
 * partition that has records (round robin), so a partition with a large backlog cannot hold back
 * the others: every assigned partition with records makes progress in every batch.
 */
export class PartitionQueues<M extends { readonly topic: string; readonly partition: number }> {
  readonly #queues = new Map<string, Queue<M>>();
  #size = 0;
  /** Which partition with records a batch starts at, moved on at every batch (a batch smaller than the partitions with records starves none). */
  #start = 0;

  get size(): number {
    return this.#size;
  }

  push(message: M): void {
    const key = `${message.topic}\u0000${message.partition}`;
    let queue = this.#queues.get(key);
    if (queue === undefined) this.#queues.set(key, (queue = { items: [], head: 0 }));
    queue.items.push(message);
    this.#size++;
  }

  /** Puts a batch back in front of what waits (records taken but not processed), keeping each partition's order. */
  putBack(batch: readonly M[]): void {
    const byKey = new Map<string, M[]>();
    for (const m of batch) {
      const key = `${m.topic}\u0000${m.partition}`;
      const list = byKey.get(key) ?? [];
      list.push(m);
      byKey.set(key, list);
    }
    for (const [key, list] of byKey) {
      const queue = this.#queues.get(key);
      if (queue === undefined) this.#queues.set(key, { items: list, head: 0 });
      else {
        queue.items = list.concat(queue.items.slice(queue.head));
        queue.head = 0;
      }
      this.#size += list.length;
    }
  }

  /**
   * Up to `max` records, an equal share from each partition in turn (in each partition's order),
   * starting one partition further at every batch.
   */
  take(max: number): M[] {
    const batch: M[] = [];
    const start = this.#start++;
    while (batch.length < max && this.#size > 0) {
      const filled = [...this.#queues.values()].filter((q) => q.head < q.items.length);
      const from = start % filled.length;
      const nonEmpty = from === 0 ? filled : filled.slice(from).concat(filled.slice(0, from));
      const share = Math.max(1, Math.floor((max - batch.length) / nonEmpty.length));
      for (const queue of nonEmpty) {
        const n = Math.min(share, queue.items.length - queue.head, max - batch.length);
        for (let i = 0; i < n; i++) batch.push(queue.items[queue.head + i]!);
        queue.head += n;
        this.#size -= n;
        if (queue.head === queue.items.length) {
          queue.items = [];
          queue.head = 0;
        } else if (queue.head >= compactAfter && queue.head * 2 >= queue.items.length) {
          // under a backlog a queue never empties: the records taken must not stay referenced
          // (each holds its whole fetch response) until it does
          queue.items = queue.items.slice(queue.head);
          queue.head = 0;
        }
        if (batch.length >= max) break;
      }
    }
    return batch;
  }

  /** Drops the records of partitions not in `keep` (`topic\0partition`); returns how many. */
  retainOnly(keep: ReadonlySet<string>): number {
    let dropped = 0;
    for (const [key, queue] of this.#queues) {
      if (keep.has(key)) continue;
      dropped += queue.items.length - queue.head;
      this.#queues.delete(key);
    }
    this.#size -= dropped;
    return dropped;
  }

  clear(): void {
    this.#queues.clear();
    this.#size = 0;
  }
}
