import type { OutgoingRecord } from '../records.ts';

/**
 * The largest spread of record timestamps one produce request may hold per topic. @platformatic/kafka
 * (through @platformatic/dynamic-buffer 0.3.1, `int64ZigZagEncode`: `value >> 31n` where 64-bit
 * zigzag needs `>> 63n`) writes a record's timestamp delta from its batch's first record wrongly
 * once the delta reaches ±2^31 ms (~24.8 days): the broker then stores a timestamp off by a few
 * milliseconds or more. Records of old events mixed with current ones (TIMESTAMP parsing a past
 * time, a fallback to the record time) hit it.
 */
const maxTimestampSpread = 2n ** 31n - 1n;

/**
 * `out` split, in order, into runs whose records of each topic lie within `maxTimestampSpread` of
 * each other, to be sent one after the other (so per-partition order is kept). Almost always one run.
 */
export function timestampSafeRuns(out: OutgoingRecord[]): OutgoingRecord[][] {
  if (out.length === 0) return [out];
  // a record without a timestamp gets the time of the send
  const now = BigInt(Date.now());
  let min = out[0]!.timestamp ?? now;
  let max = min;
  for (let i = 1; i < out.length; i++) {
    const ts = out[i]!.timestamp ?? now;
    if (ts < min) min = ts;
    else if (ts > max) max = ts;
  }
  if (max - min <= maxTimestampSpread) return [out];
  const runs: OutgoingRecord[][] = [];
  let run: OutgoingRecord[] = [];
  let bounds = new Map<string, [bigint, bigint]>();
  for (const record of out) {
    const ts = record.timestamp ?? now;
    const b = bounds.get(record.topic);
    const lo = b === undefined || ts < b[0] ? ts : b[0];
    const hi = b === undefined || ts > b[1] ? ts : b[1];
    if (hi - lo > maxTimestampSpread) {
      runs.push(run);
      run = [];
      bounds = new Map([[record.topic, [ts, ts]]]);
    } else {
      bounds.set(record.topic, [lo, hi]);
    }
    run.push(record);
  }
  runs.push(run);
  return runs;
}

/** Bytes of keys and values one produce request may carry: below the broker's default max.message.bytes (1 MiB) per partition batch. */
const maxRequestBytes = 512 * 1024;

/**
 * `runs` cut further, in order, so that no send carries more than `maxRequestBytes` of keys and
 * values (a batch of changelog records of large correlation groups could otherwise exceed the
 * broker's message size limit and fail the batch over and over).
 */
export function sizeBoundedRuns(runs: readonly OutgoingRecord[][]): OutgoingRecord[][] {
  const out: OutgoingRecord[][] = [];
  for (const run of runs) {
    let chunk: OutgoingRecord[] = [];
    let bytes = 0;
    for (const record of run) {
      const size = (record.key?.length ?? 0) + (record.value?.length ?? 0) + 64;
      if (chunk.length > 0 && bytes + size > maxRequestBytes) {
        out.push(chunk);
        chunk = [];
        bytes = 0;
      }
      chunk.push(record);
      bytes += size;
    }
    if (chunk.length > 0) out.push(chunk);
  }
  return out;
}
