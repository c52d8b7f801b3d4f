import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { buildColumnIndex } from './column-index.ts';
import type { ColumnIndexSource, SharedLookupData } from './shared-lookup.ts';

/**
 * How a stream worker thread asks the main thread for a column index of a shared lookup (posted
 * in its WorkerInit, the port transferred): requests and answers on `port`, and `signal`, the
 * number of the last request answered, which the worker waits on (`Atomics.wait`), since a lookup
 * stage needs its index at once, inside the worker's synchronous processing of an event.
 */
export interface LookupIndexChannel {
  readonly port: MessagePort;
  readonly signal: SharedArrayBuffer;
}

interface IndexRequest {
  readonly seq: number;
  readonly key: string;
  readonly column: string;
  readonly path: readonly string[];
}

interface IndexAnswer {
  readonly seq: number;
  /** null: not a table of the current snapshot (the worker builds the index itself). */
  readonly memory: SharedArrayBuffer | null;
}

/**
 * The node's one copy of the column indexes of its shared lookups (docs/architecture.md, "Lookup
 * tables"), on the main thread: the first worker thread that looks a column up has the index built
 * here, into shared memory, and every other thread gets the same memory. The indexes of the
 * lookups of the current snapshot are kept; a snapshot with other lookups drops them.
 */
export class LookupIndexServer {
  #tables = new Map<string, { readonly data: SharedLookupData; readonly columns: Map<string, SharedArrayBuffer> }>();
  readonly #ports = new Set<MessagePort>();

  /** The lookups now posted to the workers (a snapshot that carries lookups), in place of the ones before. */
  share(lookups: readonly SharedLookupData[]): void {
    this.#tables = new Map(lookups.map((data) => [data.key, { data, columns: new Map() }]));
  }

  /** A channel for one worker thread: post its `port` (transferred) and `signal` in the worker's init. */
  channel(): LookupIndexChannel {
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const answered = new Int32Array(signal);
    port1.on('message', (request: IndexRequest) => {
      let memory: SharedArrayBuffer | null = null;
      try {
        memory = this.#index(request) ?? null;
      } catch {
        // a row that does not parse: the worker builds the index itself and fails there, with its error
      }
      const answer: IndexAnswer = { seq: request.seq, memory };
      port1.postMessage(answer);
      Atomics.store(answered, 0, request.seq);
      Atomics.notify(answered, 0);
    });
    port1.on('close', () => this.#ports.delete(port1));
    port1.unref(); // the workers keep the process alive, not their channels
    this.#ports.add(port1);
    return { port: port2, signal };
  }

  /** Closes every channel (the engine stopped its workers). */
  close(): void {
    for (const port of this.#ports) port.close();
    this.#ports.clear();
  }

  #index(request: IndexRequest): SharedArrayBuffer | undefined {
    const table = this.#tables.get(request.key);
    if (table === undefined) return undefined;
    let memory = table.columns.get(request.column);
    if (memory === undefined) {
      memory = buildColumnIndex(table.data, request.column, request.path);
      table.columns.set(request.column, memory);
    }
    return memory;
  }
}

/**
 * A worker thread's side of its channel: asks for an index and waits for the answer (at most
 * `timeoutMs`; then, or when the main thread does not know the table, undefined: the worker
 * builds the index itself, as it would without a channel).
 */
export function lookupIndexClient(channel: LookupIndexChannel, timeoutMs = 60_000): ColumnIndexSource {
  const answered = new Int32Array(channel.signal);
  let seq = 0;
  return (data, column, path) => {
    const request: IndexRequest = { seq: ++seq, key: data.key, column, path: [...path] };
    channel.port.postMessage(request);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = Atomics.load(answered, 0);
      const answer = receiveMessageOnPort(channel.port)?.message as IndexAnswer | undefined;
      if (answer !== undefined) {
        if (answer.seq === request.seq) return answer.memory ?? undefined;
        continue; // the answer to an earlier request, given up on after its time
      }
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      Atomics.wait(answered, 0, seen, left);
    }
  };
}
