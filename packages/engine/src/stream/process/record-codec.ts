import { deserialize, serialize } from '../../kafka/serde-codecs.ts';
import type { SerdeType } from '../../kafka/serdes.ts';
import type { TaskRecord } from '../../tasks/index.ts';

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

/** `JSON.stringify(value)`, taken from `texts` when this object was serialised already for the same record. */
export function jsonText(value: object, texts: JsonTexts | undefined): string {
  if (texts === undefined) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}
