import { deserialize, serialize } from '../../kafka/serde-codecs.ts';
import type { SerdeType } from '../../kafka/serdes.ts';
import type { JsonObject, TaskRecord } from '../../tasks/index.ts';
import { copiedFrom } from '../../rules/rule-alert.ts';

const textTypes = new Set<SerdeType>(['String', 'ByteArray', 'Bytes', 'ByteBuffer']);

/**
 * A record value as the pipeline sees it: text. String and the byte serdes are read as UTF-8 text
 * (raw log lines are often produced as bytes); Integer, Long, Float, Double and UUID values become
 * their text form. Tasks that need an event parse the text as JSON (tasks.md).
 */
export function decodeValue(type: SerdeType, data: Buffer): string {
  if (textTypes.has(type)) return data.toString('utf8');
  return String(deserialize(type, data));
}

/**
 * The bytes written for a pipeline result: events as JSON text, text as UTF-8, for String and the
 * byte serdes; numeric and UUID serdes take text holding a value of their type. Throws SerdeError
 * (the record goes to the dead-letter topic) when the value does not fit. `bytes`: the JSON bytes
 * of the events already serialised for this record (an alert goes to the outputs and the alerts
 * topic: serialised once); the bytes of `value` are added.
 */
export function encodeValue(type: SerdeType, value: TaskRecord['value'], bytes?: JsonBytes): Buffer {
  if (textTypes.has(type)) return typeof value === 'string' ? Buffer.from(value, 'utf8') : jsonBytes(value, bytes);
  const text = typeof value === 'string' ? value : jsonBytes(value, bytes).toString('utf8');
  const typed = type === 'UUID' ? text : type === 'Long' && /^-?\d+$/.test(text.trim()) ? text.trim() : Number(text);
  return serialize(type, typed) ?? Buffer.alloc(0);
}

/**
 * The JSON bytes (UTF-8) of the events of one record's results, made once (encodeValue,
 * alertRecordValue). Bytes, not text: an alert's text is its event's plus a few keys, and as a
 * string that is a new flat copy of the whole event per alert (twice: outputs, then alerts topic),
 * garbage the worker threads' collector then has to go through (bench/RESULTS.md, issue 24).
 */
export type JsonBytes = Map<object, Buffer>;

/**
 * The UTF-8 bytes of `JSON.stringify(value)`, taken from `bytes` when this object was serialised
 * already for the same record; an alert copied from its event (rule-alert.ts's withRule: the
 * event's keys, then `_rule`, `_time`) from the event's bytes, made once for all of its alerts
 * (`spliced`). The Buffer may be shared by several records: nobody writes into it.
 */
export function jsonBytes(value: object, bytes: JsonBytes | undefined): Buffer {
  if (bytes === undefined) return Buffer.from(JSON.stringify(value), 'utf8');
  let b = bytes.get(value);
  if (b === undefined) {
    const event = copiedFrom(value as JsonObject);
    if (event !== undefined) b = spliced(value as JsonObject, event, jsonBytes(event, bytes));
    bytes.set(value, (b ??= Buffer.from(JSON.stringify(value), 'utf8')));
  }
  return b;
}

/**
 * The JSON bytes of `value`, a copy of `base` with keys added after base's own, from `base`'s
 * bytes `baseBytes` (what `JSON.stringify(value)` gives in UTF-8, byte for byte); undefined unless
 * `value`'s keys begin with `base`'s, in the same order and with the same (identical) values, and
 * neither has a `toJSON` method. Nested values are the same objects, so they serialise alike.
 */
export function spliced(value: JsonObject, base: JsonObject, baseBytes: Buffer): Buffer | undefined {
  if (typeof value['toJSON'] === 'function' || typeof base['toJSON'] === 'function') return undefined;
  if (baseBytes[baseBytes.length - 1] !== 0x7d) return undefined;
  const keys = Object.keys(value);
  const baseKeys = Object.keys(base);
  if (keys.length < baseKeys.length) return undefined;
  for (let i = 0; i < baseKeys.length; i++) {
    const key = baseKeys[i] as string;
    if (keys[i] !== key || value[key] !== base[key]) return undefined;
  }
  let tail = '';
  // `{}`: no key of base was written (none, or only undefined values)
  let first = baseBytes.length === 2;
  for (let i = baseKeys.length; i < keys.length; i++) {
    const key = keys[i] as string;
    const json = JSON.stringify(value[key]) as string | undefined;
    if (json === undefined) continue;
    tail += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
    first = false;
  }
  return tail === '' ? baseBytes : closedWith(baseBytes, `${tail}}`);
}

/**
 * A copy of `bytes` (a JSON object's, ending with `}`) with its last byte replaced by `tail` in
 * UTF-8: the object's text with keys added at its end, without the whole text as a string.
 */
export function closedWith(bytes: Buffer, tail: string): Buffer {
  const start = bytes.length - 1;
  const out = Buffer.allocUnsafe(start + Buffer.byteLength(tail, 'utf8'));
  bytes.copy(out, 0, 0, start);
  out.write(tail, start, 'utf8');
  return out;
}
