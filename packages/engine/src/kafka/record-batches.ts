import type { RecordsBatch } from '@platformatic/kafka';

const IS_CONTROL_BATCH = 0x20;
const IS_CONTROL_RECORD = 0x20;

/** A data record of a fetched batch with its absolute offset. */
export type VisitRecord = (offset: bigint, record: RecordsBatch['records'][number]) => void;

/**
 * Walks fetched record batches from `position` on: hands every data record at or after it to
 * `visit` (control batches and records, such as transaction markers, are passed over) and returns
 * the position after the last batch, where the next fetch starts.
 */
export function visitRecords(batches: readonly RecordsBatch[], position: bigint, visit: VisitRecord): bigint {
  for (const batch of batches) {
    const last = batch.firstOffset + BigInt(batch.lastOffsetDelta);
    if (last < position) continue;
    if (!(batch.attributes & IS_CONTROL_BATCH)) {
      for (const record of batch.records) {
        const offset = batch.firstOffset + BigInt(record.offsetDelta);
        if (offset >= position && !(record.attributes & IS_CONTROL_RECORD)) visit(offset, record);
      }
    }
    position = last + 1n;
  }
  return position;
}
