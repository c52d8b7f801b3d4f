import { encodingKey, type SharedLookupData } from './shared-lookup.ts';

/**
 * Gives back the memory of a stored lookup's bytes now, once shareLookupJson copied them: the
 * ArrayBuffer is detached (`transfer(0)`), which frees it at once, where dropping the reference
 * waits for the thread's next full collection — which a main thread that allocates little after
 * loading the tables may not run for a long time (the 1M-row lookup's 52 MiB of JSON stayed
 * resident in about half of the `tables` bench's runs: bench/RESULTS.md, "Tables at 1 thread:
 * stop 31 vs stop 32"). Only for bytes the caller owns and never reads again; a view of part of its
 * buffer (a pooled Buffer) or of shared memory is left alone. The view is empty afterwards.
 */
export function releaseJson(json: Uint8Array): void {
  const buffer = json.buffer;
  if (!(buffer instanceof ArrayBuffer) || buffer.detached) return;
  if (json.byteOffset !== 0 || json.byteLength !== buffer.byteLength) return;
  buffer.transfer(0);
}

/**
 * A stored lookup (`{"id": …, "content": [row, …]}` as the config store holds it, UTF-8) encoded
 * into shared memory (rules/shared-lookup.ts) straight from its bytes: each row's JSON is copied as
 * it is stored, and no row becomes an object, so the main thread holds nothing of the table but the
 * shared copy once it is done (docs/architecture.md, "Lookup tables"). The bytes are scanned, not
 * parsed: a structural byte of JSON (`{ } [ ] " , :`) is never part of a multi-byte UTF-8
 * character. Stored rows were checked when they were written; a record that is not a stored
 * lookup's JSON fails with what is wrong and at which byte.
 */
/**
 * `shareLookupJson`, then the stored bytes freed (`releaseJson`): for a caller that owns `json` and
 * never reads it again (the stream engine's snapshots, config-snapshot.ts; the bench's runner).
 */
export function moveLookupJson(json: Uint8Array): SharedLookupData {
  const shared = shareLookupJson(json);
  releaseJson(json); // freed now, not at the thread's next full collection
  return shared;
}

export function shareLookupJson(json: Uint8Array): SharedLookupData {
  const scan = new Scanner(json);
  let id: string | undefined;
  let content = -1; // where the rows' array starts
  let count = 0;
  let size = 0;
  scan.expect(0x7b); // {
  if (scan.peek() === 0x7d) scan.at++;
  else
    for (;;) {
      const key = JSON.parse(scan.text(scan.peekAt(), scan.skipString())) as string;
      scan.expect(0x3a); // :
      if (key === 'id') id = JSON.parse(scan.text(scan.peekAt(), scan.skipValue())) as string;
      else if (key === 'content') {
        content = scan.peekAt();
        scan.rows((start, end) => {
          count++;
          size += end - start;
        });
      } else scan.skipValue();
      if (scan.peek() === 0x2c) scan.at++;
      else break;
    }
  scan.expect(0x7d);
  if (scan.peek() !== -1) throw scan.error('more after the record');
  if (typeof id !== 'string') throw scan.error('no string "id"');
  if (content < 0) throw scan.error('no "content"');
  // a second pass over the rows copies them: no list of where each is, however many they are
  const starts = new Float64Array(new SharedArrayBuffer(8 * (count + 1)));
  const bytes = new SharedArrayBuffer(size);
  const view = new Uint8Array(bytes);
  let i = 0;
  let at = 0;
  scan.at = content;
  scan.rows((start, end) => {
    starts[i++] = at;
    view.set(json.subarray(start, end), at);
    at += end - start;
  });
  starts[count] = at;
  return { id, key: encodingKey(id), bytes, starts: starts.buffer as SharedArrayBuffer, count };
}

class Scanner {
  readonly #b: Uint8Array;
  at = 0;

  constructor(bytes: Uint8Array) {
    this.#b = bytes;
  }

  error(what: string): Error {
    return new Error(`a stored lookup's JSON: ${what} at byte ${this.at}`);
  }

  text(start: number, end: number): string {
    return Buffer.from(this.#b.buffer, this.#b.byteOffset + start, end - start).toString('utf8');
  }

  /** The next byte that is not white space (-1 at the end); `at` moves to it. */
  peek(): number {
    const b = this.#b;
    while (this.at < b.length) {
      const c = b[this.at]!;
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c;
      this.at++;
    }
    return -1;
  }

  /** Where the next value starts (white space skipped). */
  peekAt(): number {
    this.peek();
    return this.at;
  }

  expect(c: number): void {
    if (this.peek() !== c) throw this.error(`'${String.fromCharCode(c)}' expected`);
    this.at++;
  }

  /** Skips a string (at its opening quote); returns where it ends. */
  skipString(): number {
    this.expect(0x22);
    const b = this.#b;
    for (let i = this.at; i < b.length; i++) {
      const c = b[i]!;
      if (c === 0x5c) i++;
      else if (c === 0x22) return (this.at = i + 1);
    }
    this.at--;
    throw this.error('a string without its end');
  }

  /** Skips one value (string, number, literal, object or array); returns where it ends. */
  skipValue(): number {
    const c = this.peek();
    if (c === 0x22) return this.skipString();
    const b = this.#b;
    if (c !== 0x7b && c !== 0x5b) {
      // number or literal: up to the next structural byte or white space
      const start = this.at;
      while (this.at < b.length && !/[\s,\]}]/.test(String.fromCharCode(b[this.at]!))) this.at++;
      if (this.at === start) throw this.error('a value expected');
      return this.at;
    }
    let depth = 0;
    const start = this.at;
    for (let i = this.at; i < b.length; i++) {
      const d = b[i]!;
      if (d === 0x22) {
        this.at = i;
        i = this.skipString() - 1;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return (this.at = i + 1);
    }
    this.at = start;
    throw this.error('an object or array without its end');
  }

  /** The `content` array: each row's [start, end), each an object. */
  rows(row: (start: number, end: number) => void): void {
    this.expect(0x5b); // [
    if (this.peek() === 0x5d) {
      this.at++;
      return;
    }
    for (let n = 1; ; n++) {
      if (this.peek() !== 0x7b) throw this.error(`row ${n} is not an object`);
      const start = this.at;
      row(start, this.skipValue());
      if (this.peek() === 0x2c) this.at++;
      else break;
    }
    this.expect(0x5d);
  }
}
