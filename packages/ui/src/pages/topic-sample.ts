/**
 * The messages a rule test takes from a topic, as the sample's lines: one JSON object per line.
 * A rule runs on JSON objects, so every other message (text such as `user=bob`, a JSON array or
 * number) is skipped, and counted, instead of failing the whole test on the first one.
 */
export function topicSample(values: readonly unknown[]): { lines: string[]; skipped: number } {
  const lines: string[] = [];
  let skipped = 0;
  for (const value of values) {
    let event: unknown = value;
    if (typeof value === 'string') {
      try {
        event = JSON.parse(value);
      } catch {
        event = undefined;
      }
    }
    if (event !== null && typeof event === 'object' && !Array.isArray(event)) lines.push(JSON.stringify(event));
    else skipped++;
  }
  return { lines, skipped };
}

/** What the test panel says after loading: how many events, and how many messages were skipped. */
export function sampleNote(topic: string, sample: { lines: readonly string[]; skipped: number }): string {
  const events = `${sample.lines.length} ${sample.lines.length === 1 ? 'event' : 'events'} from ${topic}`;
  if (sample.skipped === 0) return `Loaded ${events}.`;
  const messages = `${sample.skipped} ${sample.skipped === 1 ? 'message' : 'messages'}`;
  return `Loaded ${events}; skipped ${messages} that ${sample.skipped === 1 ? 'is' : 'are'} not a JSON object.`;
}
