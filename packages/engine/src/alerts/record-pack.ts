import type { TopicRecord } from './alert-index.ts';

/**
 * A fetch's records as one ArrayBuffer, to hand to the alert writer thread (alert-writer.ts) by
 * transfer, not by copying many small Buffers: a header of float64s, the count and then partition,
 * offset and value length per record (-1: no value), followed by the values' bytes one after the
 * other. Keys are left out: the index reads none.
 */
export function packRecords(records: readonly TopicRecord[]): ArrayBuffer {
  const headerBytes = 8 * (1 + 3 * records.length);
  let bytes = headerBytes;
  for (const r of records) bytes += r.value?.length ?? 0;
  const buffer = new ArrayBuffer(bytes);
  const header = new Float64Array(buffer, 0, 1 + 3 * records.length);
  const body = new Uint8Array(buffer);
  header[0] = records.length;
  let at = headerBytes;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    header[1 + 3 * i] = r.partition;
    header[2 + 3 * i] = r.offset;
    header[3 + 3 * i] = r.value === null ? -1 : r.value.length;
    if (r.value !== null) {
      body.set(r.value, at);
      at += r.value.length;
    }
  }
  return buffer;
}

/** The records of `packRecords`, each value a view of `buffer` (no copy). */
export function unpackRecords(buffer: ArrayBuffer): TopicRecord[] {
  const count = new Float64Array(buffer, 0, 1)[0]!;
  const header = new Float64Array(buffer, 0, 1 + 3 * count);
  const records: TopicRecord[] = new Array(count);
  let at = 8 * (1 + 3 * count);
  for (let i = 0; i < count; i++) {
    const length = header[3 + 3 * i]!;
    records[i] = {
      partition: header[1 + 3 * i]!,
      offset: header[2 + 3 * i]!,
      value: length < 0 ? null : Buffer.from(buffer, at, length),
    };
    if (length > 0) at += length;
  }
  return records;
}
