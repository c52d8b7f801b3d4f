/** The date and time the console's time fields show as their example. */
export const isoTimeExample = '2026-11-26T08:00:00Z';

/** The milliseconds of a typed date and time, or an error naming the field (`Time`) and the text. */
export function parseTime(text: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`Time: '${text}' is not a date and time (e.g. ${isoTimeExample})`);
  return ms;
}
