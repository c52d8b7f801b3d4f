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
 * (the record goes to the dead-letter topic) when the value does not fit. `texts`: the JSON texts
 * of the events already serialised for this record (an alert goes to the outputs and the alerts
 * topic: serialised once); the text of `value` is added.
 */
export function encodeValue(type: SerdeType, value: TaskRecord['value'], texts?: JsonTexts): Buffer {
  const text = typeof value === 'string' ? value : jsonText(value, texts);
  if (textTypes.has(type)) return Buffer.from(text, 'utf8');
  const typed = type === 'UUID' ? text : type === 'Long' && /^-?\d+$/.test(text.trim()) ? text.trim() : Number(text);
  return serialize(type, typed) ?? Buffer.alloc(0);
}

/** The JSON texts of the events of one record's results, serialised once (encodeValue, alertRecordValue). */
export type JsonTexts = Map<object, string>;

/**
 * `JSON.stringify(value)`, taken from `texts` when this object was serialised already for the
 * same record; an alert copied from its event (rule-alert.ts's withRule: the event's keys, then
 * `_rule`, `_time`) from the event's text, made once for all of its alerts (`spliced`).
 */
export function jsonText(value: object, texts: JsonTexts | undefined): string {
  if (texts === undefined) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    const event = copiedFrom(value as JsonObject);
    if (event !== undefined) text = spliced(value as JsonObject, event, jsonText(event, texts));
    texts.set(value, (text ??= JSON.stringify(value)));
  }
  return text;
}

/**
 * The JSON text of `value`, a copy of `base` with keys added after base's own, from `base`'s text
 * `baseText` (what `JSON.stringify(value)` gives, byte for byte); undefined unless `value`'s keys
 * begin with `base`'s, in the same order and with the same (identical) values, and neither has a
 * `toJSON` method. Nested values are the same objects, so they serialise alike.
 */
export function spliced(value: JsonObject, base: JsonObject, baseText: string): string | undefined {
  if (typeof value['toJSON'] === 'function' || typeof base['toJSON'] === 'function') return undefined;
  if (baseText.charCodeAt(baseText.length - 1) !== 0x7d) return undefined;
  const keys = Object.keys(value);
  const baseKeys = Object.keys(base);
  if (keys.length < baseKeys.length) return undefined;
  for (let i = 0; i < baseKeys.length; i++) {
    const key = baseKeys[i] as string;
    if (keys[i] !== key || value[key] !== base[key]) return undefined;
  }
  let text = baseText.slice(0, -1);
  // `{}`: no key of base was written (none, or only undefined values)
  let first = baseText.length === 2;
  for (let i = baseKeys.length; i < keys.length; i++) {
    const key = keys[i] as string;
    const json = JSON.stringify(value[key]) as string | undefined;
    if (json === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
    first = false;
  }
  return `${text}}`;
}
