// Weir's patch of @platformatic/kafka (scripts/patch-kafka-client.ts copies this file into the
// client's dist/protocol/ and makes records.js use it; docs/architecture.md, "The Kafka client").
//
// encodeRecords: the records of a produce batch (Kafka record format v2) written into one Buffer,
// byte for byte what the client's createRecord writes record by record: the client builds a Writer
// with its own DynamicBuffer and six to eight small Buffers per record, which the CRC32C and the
// socket write then concatenate again (two full copies of every request, and the garbage).
// recordsCrc32c: the batch's CRC32C over its chunks, without concatenating them first.
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';

/** Zigzag of a safe integer (the same bytes as Kafka's 32- and 64-bit zigzag for values in range). */
function zigzag(value) {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

function sizeOfVarUint(value) {
  let bytes = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    bytes++;
  }
  return bytes;
}

function writeVarUint(buffer, position, value) {
  while (value >= 128) {
    buffer[position++] = (value % 128) | 128;
    value = Math.floor(value / 128);
  }
  buffer[position++] = value;
  return position;
}

function sizeOfBytes(bytes) {
  return bytes == null ? 1 : sizeOfVarUint(zigzag(bytes.length)) + bytes.length;
}

function writeBytes(buffer, position, bytes) {
  if (bytes == null) return writeVarUint(buffer, position, 1);
  position = writeVarUint(buffer, position, zigzag(bytes.length));
  if (bytes.length > 0) buffer.set(bytes, position);
  return position + bytes.length;
}

/**
 * The records of `messages` (timestamps already BigInt, headers a Map of serialised keys and values)
 * as one Buffer: per record its varint length, then attributes, timestamp delta from
 * `firstTimestamp`, offset delta, key, value and headers.
 */
export function encodeRecords(messages, firstTimestamp) {
  const count = messages.length;
  const bodies = new Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const message = messages[i];
    let body = 1 + sizeOfVarUint(zigzag(Number(message.timestamp - firstTimestamp))) + sizeOfVarUint(zigzag(i));
    body += sizeOfBytes(message.key) + sizeOfBytes(message.value);
    const headers = message.headers;
    const headerCount = headers == null ? 0 : headers.size;
    body += sizeOfVarUint(zigzag(headerCount));
    if (headerCount > 0) for (const [key, value] of headers) body += sizeOfBytes(key) + sizeOfBytes(value);
    bodies[i] = body;
    total += sizeOfVarUint(zigzag(body)) + body;
  }
  const buffer = Buffer.allocUnsafe(total);
  let position = 0;
  for (let i = 0; i < count; i++) {
    const message = messages[i];
    position = writeVarUint(buffer, position, zigzag(bodies[i]));
    buffer[position++] = 0; // attributes
    position = writeVarUint(buffer, position, zigzag(Number(message.timestamp - firstTimestamp)));
    position = writeVarUint(buffer, position, zigzag(i));
    position = writeBytes(buffer, position, message.key);
    position = writeBytes(buffer, position, message.value);
    const headers = message.headers;
    position = writeVarUint(buffer, position, zigzag(headers == null ? 0 : headers.size));
    if (headers != null && headers.size > 0)
      for (const [key, value] of headers) {
        position = writeBytes(buffer, position, key);
        position = writeBytes(buffer, position, value);
      }
  }
  if (position !== total) throw new Error(`record batch encoding: wrote ${position} of ${total} bytes`);
  return buffer;
}

/** @node-rs/crc32 (an optional dependency of the client) takes an initial value, so the chunks need no concatenation. */
const native = (() => {
  try {
    return createRequire(import.meta.url)('@node-rs/crc32').crc32c;
  } catch {
    return undefined;
  }
})();

/** The CRC32C of a DynamicBuffer's bytes; `fallback` (the client's crc32c) when the native one is missing. */
export function recordsCrc32c(dynamicBuffer, fallback) {
  if (!native) return fallback(dynamicBuffer);
  let crc = 0;
  for (const chunk of dynamicBuffer.buffers) crc = native(chunk, crc);
  return crc >>> 0;
}
