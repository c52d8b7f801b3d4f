import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { AlertIndex } from './alert-index.ts';
import { unpackRecords } from './record-pack.ts';
import type { FromWriter, ToWriter, WriterInit } from './alert-writer.ts';

/**
 * The alert writer thread (alert-writer.ts): owns the index's write connection and applies the
 * requests of `port` one at a time, each in its own transaction, answering each with `done` or
 * `failed`: in the order they came, except that a triage request waiting goes before the ingest
 * batches waiting (a triage change answers after the batch being written, not after those queued
 * behind it; the two touch different rows: an alert takes its triage whenever it arrives). Once a
 * batch of a topic's run failed, the later batches of that run are refused unapplied (their
 * positions follow the failed batch's records): the follower starts a new run from the stored positions.
 */
export function serveWriter(port: MessagePort, init: WriterInit): void {
  let index: AlertIndex | undefined;
  const failedRuns = new Map<string, number>();
  const open = () => (index ??= new AlertIndex(init.location, init.retention, { prune: false }));
  const work = (m: ToWriter): unknown => {
    switch (m.type) {
      case 'ingest':
        return open().ingest(m.topic, unpackRecords(m.records), new Map(m.next));
      case 'triage':
        if (m.topic === undefined) return open().applyTriage(m.entries);
        return open().applyTriage(m.entries, m.topic, new Map(m.next));
      case 'open':
        open();
        return undefined;
      case 'prune':
        return open().prune();
      case 'close':
        index?.close();
        index = undefined;
        return undefined;
    }
  };
  const waiting: ToWriter[] = [];
  let scheduled = false;
  // each request in a task of its own, so the messages that arrived meanwhile are all waiting here
  const next = () => {
    scheduled = false;
    const triage = waiting.findIndex((m) => m.type === 'triage');
    const m = waiting.splice(triage >= 0 ? triage : 0, 1)[0];
    if (m) handle(m);
    if (waiting.length > 0 && !scheduled) {
      scheduled = true;
      setImmediate(next);
    }
  };
  port.on('message', (m: ToWriter) => {
    waiting.push(m);
    if (!scheduled) {
      scheduled = true;
      setImmediate(next);
    }
  });
  const handle = (m: ToWriter) => {
    const topic = m.type === 'ingest' || m.type === 'triage' ? m.topic : undefined;
    const run = m.type === 'ingest' || m.type === 'triage' ? m.run : undefined;
    if (topic !== undefined && run !== undefined && failedRuns.get(topic) === run) {
      port.postMessage({
        type: 'failed',
        id: m.id,
        message: `not applied: an earlier batch of ${topic} failed; it is read again from the stored positions`,
      } satisfies FromWriter);
      return;
    }
    let reply: FromWriter;
    try {
      reply = { type: 'done', id: m.id, result: work(m) };
    } catch (err) {
      if (topic !== undefined && run !== undefined) failedRuns.set(topic, run);
      reply = { type: 'failed', id: m.id, message: (err as Error).message };
    }
    port.postMessage(reply);
    if (m.type === 'close') port.close();
  };
}

if (!isMainThread && (workerData as { alertWriter?: WriterInit } | null)?.alertWriter)
  serveWriter(parentPort!, (workerData as { alertWriter: WriterInit }).alertWriter);
