import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { UsageError } from './errors.ts';

/** Where an event is in its file: its line (NDJSON, from 1) or its position in a JSON array (from 0). */
export type EventPosition = { readonly line: number } | { readonly index: number };

/** Called with each event of the file, in file order. */
export type EventSink = (event: Record<string, unknown>, position: EventPosition) => void;

const chunkBytes = 1 << 20;

function notAnObject(where: string, value: unknown): UsageError {
  return new UsageError(
    `${where}: an event must be a JSON object, found ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
  );
}

/**
 * Reads an events file (`-`: standard input) and gives each event to `sink`, in order: a JSON array
 * (the file starts with `[`), or NDJSON (one JSON object a line, blank lines skipped), read in
 * chunks so a file of any size runs in little memory. A line that is not JSON, or a value that is not
 * an object, is a UsageError naming the file and line: a backtest never skips what it was given.
 * Returns how many events there were.
 */
export function readEvents(file: string, sink: EventSink): number {
  const source = file === '-' ? 'stdin' : file;
  let fd: number;
  try {
    fd = file === '-' ? 0 : openSync(file, 'r');
  } catch (err) {
    throw new UsageError(`--events ${file}: ${(err as Error).message}`);
  }
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    const decoder = new StringDecoder('utf8');
    let first = readChunk(fd, buffer, source);
    let head = decoder.write(buffer.subarray(0, first));
    while (first > 0 && head.trimStart() === '') {
      first = readChunk(fd, buffer, source);
      head += decoder.write(buffer.subarray(0, first));
    }
    if (head.trimStart().startsWith('[')) {
      let rest = head;
      for (let n = readChunk(fd, buffer, source); n > 0; n = readChunk(fd, buffer, source))
        rest += decoder.write(buffer.subarray(0, n));
      return arrayEvents(rest + decoder.end(), source, sink);
    }
    let count = 0;
    let line = 0;
    let pending = head;
    const flush = (text: string): void => {
      line++;
      if (text.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        throw new UsageError(`${source}:${line}: not JSON (${(err as Error).message}); give NDJSON or a JSON array`);
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw notAnObject(`${source}:${line}`, value);
      count++;
      sink(value as Record<string, unknown>, { line });
    };
    for (;;) {
      let start = 0;
      for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
        flush(pending.slice(start, nl));
        start = nl + 1;
      }
      pending = pending.slice(start);
      const n = readChunk(fd, buffer, source);
      if (n === 0) break;
      pending += decoder.write(buffer.subarray(0, n));
    }
    pending += decoder.end();
    if (pending !== '') flush(pending);
    return count;
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

function readChunk(fd: number, buffer: Buffer, source: string): number {
  try {
    return readSync(fd, buffer, 0, buffer.length, null);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return readChunk(fd, buffer, source);
    if ((err as NodeJS.ErrnoException).code === 'EOF') return 0;
    throw new UsageError(`cannot read ${source}: ${(err as Error).message}`);
  }
}

function arrayEvents(text: string, source: string, sink: EventSink): number {
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${source}: not a JSON array: ${(err as Error).message}`);
  }
  if (!Array.isArray(values)) throw new UsageError(`${source}: not a JSON array`);
  values.forEach((value, index) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw notAnObject(`${source}[${index}]`, value);
    sink(value as Record<string, unknown>, { index });
  });
  return values.length;
}

/** A whole file's text (for tests and small inputs): `readFileSync` with the command's error. */
export function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
}
