import type { SerdeType } from './serdes.ts';
import { WeirError } from '../core/errors.ts';

/**
 * The bytes of Kafka's Java serializers (org.apache.kafka.common.serialization), so that records
 * produced through the API read back in any Kafka client and vice versa:
 * String → UTF-8; Integer → 4-byte big-endian two's complement; Long → 8-byte; Float → 4-byte
 * IEEE 754; Double → 8-byte IEEE 754; UUID → the UTF-8 text of `UUID.toString()` (lower case);
 * ByteArray, Bytes, ByteBuffer → the bytes themselves, written in JSON as base64.
 * A JSON `null` is a null record key or value (a tombstone), as in Java.
 */
export class SerdeError extends WeirError {
  override name = 'SerdeError';
  readonly code = 'SERDE_MISMATCH';
}

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const int64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const maxFloat32 = 3.4028234663852886e38;
const uuidText = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const base64Text = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** What each serializer accepts, for error messages. */
export const acceptedJson: Readonly<Record<SerdeType, string>> = {
  String: 'a string (other JSON values are written as their JSON text)',
  Integer: `a JSON integer from ${int32.min} to ${int32.max}`,
  Long: `a JSON integer, or a string of digits for values beyond ±2^53, from ${int64.min} to ${int64.max}`,
  Float: `a JSON number within ±${maxFloat32}`,
  Double: 'a JSON number',
  UUID: 'a UUID string such as 123e4567-e89b-12d3-a456-426614174000',
  ByteArray: 'a base64 string',
  Bytes: 'a base64 string',
  ByteBuffer: 'a base64 string',
};

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function refuse(type: SerdeType, value: unknown): never {
  throw new SerdeError(`${shown(value)} does not fit ${type}Serializer; accepted: ${acceptedJson[type]}`);
}

/** The record bytes for a JSON value, or null for a JSON null. Throws SerdeError when it does not fit. */
export function serialize(type: SerdeType, value: unknown): Buffer | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'String':
      return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
    case 'Integer': {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < int32.min || value > int32.max)
        refuse(type, value);
      const out = Buffer.allocUnsafe(4);
      out.writeInt32BE(value);
      return out;
    }
    case 'Long': {
      let big: bigint;
      if (typeof value === 'number' && Number.isSafeInteger(value)) big = BigInt(value);
      else if (typeof value === 'string' && /^-?\d{1,19}$/.test(value)) big = BigInt(value);
      else refuse(type, value);
      if (big < int64.min || big > int64.max) refuse(type, value);
      const out = Buffer.allocUnsafe(8);
      out.writeBigInt64BE(big);
      return out;
    }
    case 'Float': {
      if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > maxFloat32) refuse(type, value);
      const out = Buffer.allocUnsafe(4);
      out.writeFloatBE(value);
      return out;
    }
    case 'Double': {
      if (typeof value !== 'number' || !Number.isFinite(value)) refuse(type, value);
      const out = Buffer.allocUnsafe(8);
      out.writeDoubleBE(value);
      return out;
    }
    case 'UUID':
      if (typeof value !== 'string' || !uuidText.test(value)) refuse(type, value);
      return Buffer.from(value.toLowerCase(), 'utf8');
    case 'ByteArray':
    case 'Bytes':
    case 'ByteBuffer':
      if (typeof value !== 'string' || !base64Text.test(value)) refuse(type, value);
      return Buffer.from(value, 'base64');
  }
}

/** The shortest decimal that reads back as the same 32-bit float, as Java's Float.toString does. */
function float32Number(bits: number): number {
  if (!Number.isFinite(bits) || bits === 0) return bits;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(bits.toPrecision(digits));
    if (Math.fround(candidate) === bits) return candidate;
  }
  return bits;
}

function sizeCheck(type: SerdeType, data: Buffer, size: number): void {
  if (data.length !== size)
    throw new SerdeError(`Size of data received by ${type}Deserializer is not ${size} (it is ${data.length})`);
}

/**
 * The JSON value of record bytes (null for a null key or value). Long values beyond ±2^53 come out
 * as strings so that no digit is lost; NaN and infinities of Float/Double come out as strings.
 * Throws SerdeError, with Java's message, when the bytes do not fit the deserializer.
 */
export function deserialize(type: SerdeType, data: Buffer | null | undefined): unknown {
  if (data === null || data === undefined) return null;
  switch (type) {
    case 'String':
      return data.toString('utf8');
    case 'Integer':
      sizeCheck(type, data, 4);
      return data.readInt32BE(0);
    case 'Long': {
      sizeCheck(type, data, 8);
      const big = data.readBigInt64BE(0);
      const n = Number(big);
      return Number.isSafeInteger(n) ? n : big.toString();
    }
    case 'Float': {
      sizeCheck(type, data, 4);
      const n = float32Number(data.readFloatBE(0));
      return Number.isFinite(n) ? n : String(n);
    }
    case 'Double': {
      sizeCheck(type, data, 8);
      const n = data.readDoubleBE(0);
      return Number.isFinite(n) ? n : String(n);
    }
    case 'UUID': {
      const text = data.toString('utf8');
      if (!uuidText.test(text)) throw new SerdeError(`Error deserializing UUID: ${shown(text)} is not a UUID`);
      return text.toLowerCase();
    }
    case 'ByteArray':
    case 'Bytes':
    case 'ByteBuffer':
      return data.toString('base64');
  }
}
