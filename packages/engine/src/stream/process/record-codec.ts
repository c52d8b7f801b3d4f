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
 * The JSON of the values of one record's results, made once (encodeValue, alertRecordValue): an
 * event's as its text (`JSON.stringify`), turned into bytes only when the event itself is written;
 * an alert copied from it as bytes written straight from that text (`spliced`). Not the alert as a
 * string: that is a new flat copy of the whole event per alert (twice: outputs, then the alerts
 * topic), garbage the worker threads' collector then goes through (bench/RESULTS.md, issue 24).
 */
export type JsonBytes = Map<object, string | Buffer>;

/**
 * The UTF-8 bytes of `JSON.stringify(value)`, taken from `bytes` when this object was serialised
 * already for the same record; an alert copied from its event (rule-alert.ts's withRule: the
 * event's keys, then `_rule`, `_time`) from the event's text, made once for all of its alerts
 * (`spliced`). The Buffer may be shared by several records: nobody writes into it.
 */
export function jsonBytes(value: object, bytes: JsonBytes | undefined): Buffer {
  const json = jsonOf(value, bytes);
  if (typeof json !== 'string') return json;
  const b = Buffer.from(json, 'utf8');
  bytes?.set(value, b);
  return b;
}

/** The JSON of `value` from `bytes` or made and kept there: text, or bytes for a spliced copy. */
function jsonOf(value: object, bytes: JsonBytes | undefined): string | Buffer {
  if (bytes === undefined) return JSON.stringify(value);
  let json = bytes.get(value);
  if (json === undefined) {
    const event = copiedFrom(value as JsonObject);
    if (event !== undefined) json = spliced(value as JsonObject, event, jsonOf(event, bytes));
    bytes.set(value, (json ??= JSON.stringify(value)));
  }
  return json;
}

/**
 * The JSON bytes of `value`, a copy of `base` with keys added after base's own, from `base`'s
 * JSON `baseJson` (what `JSON.stringify(base)` gives, as text or UTF-8 bytes); what
 * `JSON.stringify(value)` gives in UTF-8, byte for byte; undefined unless `value`'s keys begin
 * with `base`'s, in the same order and with the same (identical) values, and neither has a
 * `toJSON` method. Nested values are the same objects, so they serialise alike.
 */
export function spliced(value: JsonObject, base: JsonObject, baseJson: string | Buffer): Buffer | undefined {
  if (typeof value['toJSON'] === 'function' || typeof base['toJSON'] === 'function') return undefined;
  const last = typeof baseJson === 'string' ? baseJson.charCodeAt(baseJson.length - 1) : baseJson[baseJson.length - 1];
  if (last !== 0x7d) return undefined;
  const keys = Object.keys(value);
  const baseKeys = Object.keys(base);
  if (keys.length < baseKeys.length) return undefined;
  for (let i = 0; i < baseKeys.length; i++) {
    const key = baseKeys[i] as string;
    if (keys[i] !== key || value[key] !== base[key]) return undefined;
  }
  let tail = '';
  // `{}`: no key of base was written (none, or only undefined values)
  let first = baseJson.length === 2;
  for (let i = baseKeys.length; i < keys.length; i++) {
    const key = keys[i] as string;
    const json = JSON.stringify(value[key]) as string | undefined;
    if (json === undefined) continue;
    tail += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
    first = false;
  }
  if (tail === '') return typeof baseJson === 'string' ? Buffer.from(baseJson, 'utf8') : baseJson;
  return closedWith(baseJson, `${tail}}`);
}

/**
 * The UTF-8 bytes of `json` (a JSON object's text or bytes, ending with `}`) with its last byte
 * replaced by `tail`: the object's JSON with keys added at its end, written into one Buffer
 * without making the whole text as a string.
 */
export function closedWith(json: string | Buffer, tail: string): Buffer {
  const text = typeof json === 'string';
  const start = (text ? Buffer.byteLength(json, 'utf8') : json.length) - 1;
  const out = Buffer.allocUnsafe(start + Buffer.byteLength(tail, 'utf8'));
  // the text's closing `}` is one byte: writing all but the last byte writes every character before it
  if (text) out.write(json, 0, start, 'utf8');
  else json.copy(out, 0, 0, start);
  out.write(tail, start, 'utf8');
  return out;
}
