/** Types of weir-record-encoder.js (Weir's patch of @platformatic/kafka). */
export interface EncodableRecord {
  readonly key?: Uint8Array | null;
  readonly value?: Uint8Array | null;
  readonly headers?: ReadonlyMap<Uint8Array, Uint8Array> | null;
  readonly timestamp: bigint;
}
export declare function encodeRecords(messages: readonly EncodableRecord[], firstTimestamp: bigint): Buffer;
export declare function recordsCrc32c(
  dynamicBuffer: { readonly buffers: readonly Buffer[] },
  fallback: (data: unknown) => number,
): number;
