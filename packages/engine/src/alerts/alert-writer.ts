import { Worker } from 'node:worker_threads';
import type { AlertTriage } from '@weir/contract';
import type { IngestResult, Positions, Retention, TopicRecord } from './alert-index.ts';
import { packRecords } from './record-pack.ts';

/** What the writer thread opens: the index's directory and its retention (alert-index.ts). */
export interface WriterInit {
  readonly location: string;
  readonly retention: Retention;
}

export interface TriageEntry {
  readonly id: string;
  readonly triage: AlertTriage;
  readonly offset: number;
}

/** A request to the writer thread (alert-writer-thread.ts); `run`: the follower's run it belongs to. */
export type ToWriter =
  | {
      type: 'ingest';
      id: number;
      topic: string;
      run: number;
      records: ArrayBuffer;
      next: [number, number][];
    }
  | {
      type: 'triage';
      id: number;
      entries: readonly TriageEntry[];
      topic?: string;
      run?: number;
      next?: [number, number][];
    }
  | { type: 'open'; id: number }
  | { type: 'prune'; id: number }
  | { type: 'close'; id: number };

export type FromWriter =
  { type: 'done'; id: number; result: unknown } | { type: 'failed'; id: number; message: string };

interface Waiting {
  resolve(result: unknown): void;
  reject(err: Error): void;
}

/**
 * The alert index's writes, on a thread of their own (docs/alerts.md, "The alert store and
 * triage"): the thread owns the index's write connection and applies each request in its own
 * transaction, in the order they were sent: ingest (JSON parse included), triage, retention,
 * each with the positions that go with it. The node's main thread keeps reading Kafka and answering
 * the API meanwhile (from its own connection, alert-index.ts). The thread starts on the first
 * request; a thread that died (an error outside a request) fails the requests it had, and the
 * next request starts a new one.
 */
export class AlertWriter {
  readonly #init: WriterInit;
  readonly #waiting = new Map<number, Waiting>();
  #thread: Worker | undefined;
  #nextId = 0;
  #closed = false;

  constructor(init: WriterInit) {
    this.#init = init;
  }

  /** Indexes a fetch's alert records and moves `topic`'s positions to `next`, in one transaction (AlertIndex.ingest). */
  ingest(topic: string, records: readonly TopicRecord[], next: Positions, run: number): Promise<IngestResult> {
    const packed = packRecords(records);
    return this.#call({ type: 'ingest', id: 0, topic, run, records: packed, next: [...next] }, [
      packed,
    ]) as Promise<IngestResult>;
  }

  /** Applies triage records (AlertIndex.applyTriage); with `topic`, `run` and `next`, the topic's positions move too. */
  async applyTriage(
    entries: readonly TriageEntry[],
    at?: { topic: string; run: number; next: Positions },
  ): Promise<void> {
    await this.#call(
      at
        ? { type: 'triage', id: 0, entries, topic: at.topic, run: at.run, next: [...at.next] }
        : { type: 'triage', id: 0, entries },
    );
  }

  /** Starts the thread and opens its connection (the first batch need not wait for that). */
  async open(): Promise<void> {
    await this.#call({ type: 'open', id: 0 });
  }

  /** Retention (AlertIndex.prune): the alerts deleted. */
  prune(): Promise<number> {
    return this.#call({ type: 'prune', id: 0 }) as Promise<number>;
  }

  /** Waits for the requests sent so far, closes the write connection and ends the thread. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const thread = this.#thread;
    if (!thread) return;
    await this.#send(thread, { type: 'close', id: 0 }).catch(() => {});
    await thread.terminate();
  }

  #call(message: ToWriter, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error('the alert store is closed'));
    return this.#send((this.#thread ??= this.#spawn()), message, transfer);
  }

  #send(thread: Worker, message: ToWriter, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      thread.postMessage({ ...message, id }, transfer);
    });
  }

  #spawn(): Worker {
    const thread = new Worker(new URL('./alert-writer-thread.ts', import.meta.url), {
      workerData: { alertWriter: this.#init },
      execArgv: ['--disable-warning=ExperimentalWarning'],
    });
    thread.on('message', (m: FromWriter) => {
      const waiting = this.#waiting.get(m.id);
      if (!waiting) return;
      this.#waiting.delete(m.id);
      if (m.type === 'done') waiting.resolve(m.result);
      else waiting.reject(new Error(m.message));
    });
    const ended = (err: Error) => {
      if (this.#thread === thread) this.#thread = undefined;
      for (const w of this.#waiting.values()) w.reject(err);
      this.#waiting.clear();
    };
    thread.on('error', (err) => ended(new Error(`the alert writer thread failed: ${err.message}`)));
    thread.on('exit', (code) => ended(new Error(`the alert writer thread ended (exit code ${code})`)));
    return thread;
  }
}
