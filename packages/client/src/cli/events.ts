import { readFileSync } from 'node:fs';
import { UsageError } from './errors.ts';

/** One input event: the parsed JSON value, the raw text it came from, and where (for error messages). */
export interface InputEvent {
  readonly value: unknown;
  readonly text: string;
  readonly where: string;
}

/**
 * Events from a file (`-` for standard input): a JSON array, or NDJSON (one JSON value a line, blank
 * lines skipped). With `raw`, every non-blank line is one event as text (pipeline tests of raw logs).
 * A line that is not JSON is an error naming the file and line, never skipped.
 */
export function parseEvents(text: string, source: string, raw = false): InputEvent[] {
  const lines = text.split(/\r?\n/);
  if (raw) {
    return lines.flatMap((line, i) =>
      line.trim() === '' ? [] : [{ value: line, text: line, where: `${source}:${i + 1}` }],
    );
  }
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let values: unknown[];
    try {
      values = JSON.parse(text) as unknown[];
    } catch (err) {
      throw new UsageError(`${source}: not a JSON array: ${(err as Error).message}`);
    }
    return values.map((value, i) => ({
      value,
      text: typeof value === 'string' ? value : JSON.stringify(value),
      where: `${source}[${i}]`,
    }));
  }
  const events: InputEvent[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new UsageError(
        `${source}:${i + 1}: not JSON (${(err as Error).message}); give NDJSON, a JSON array, or --raw for text lines`,
      );
    }
    events.push({ value, text: typeof value === 'string' ? value : line, where: `${source}:${i + 1}` });
  });
  return events;
}

export function readEventsFile(file: string, raw = false): InputEvent[] {
  let text: string;
  try {
    text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  return parseEvents(text, file === '-' ? 'stdin' : file, raw);
}
