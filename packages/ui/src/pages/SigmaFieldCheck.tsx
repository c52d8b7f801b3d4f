import { Alert, Button, Code, Group, List, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '../lib/api.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { errorText } from '../lib/errors.ts';
import { usePoll } from '../lib/usePoll.ts';
import { fieldHints, type FieldHint } from './sigma-fields.ts';
import { topicSample } from './topic-sample.ts';

/** The last `count` records of every partition of a topic (its most recent events), read through a consume session. */
async function recentValues(topic: string, count: number): Promise<unknown[]> {
  const { partitions } = await api.topicPartitions(topic);
  const values: unknown[] = [];
  for (const p of partitions) {
    if (p.highOffset <= p.lowOffset) continue;
    const startOffset = Math.max(p.lowOffset, p.highOffset - count);
    await api.consume(topic, { partition: p.partition, startOffset, maxEvents: count, maxTimeoutSeconds: 3 });
    for (;;) {
      const read = await api.consumeRead(topic, 0);
      if (read.status !== 'RUNNING') {
        values.push(...read.messages.map((m) => m.value));
        break;
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  return values;
}

/** ` (1 message that is not a JSON object skipped)`, or nothing. */
const skippedNote = (n: number): string =>
  n === 0
    ? ''
    : n === 1
      ? ' (1 message that is not a JSON object skipped)'
      : ` (${n} messages that are not JSON objects skipped)`;

interface Checked {
  topic: string;
  events: number;
  skipped: number;
  hints: FieldHint[];
}

/**
 * The hint for events that do not fit the mapping (docs/ui.md, "Sigma import"): the converted
 * rules' fields checked against a topic's recent events, naming each rule's fields that never occur.
 */
export function SigmaFieldCheck({ rules }: { rules: readonly { id: string; name: string; pdl: string }[] }) {
  const topics = usePoll(() => api.topics(), 0);
  const [topic, setTopic] = useState<string | null>(null);
  const [count, setCount] = useState<number | string>(100);
  const [checked, setChecked] = useState<Checked>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // A new preview (other files, another mapping) makes the last check stale.
  useEffect(() => setChecked(undefined), [rules]);
  const check = async () => {
    if (!topic) return;
    setBusy(true);
    setError(undefined);
    try {
      const sample = topicSample(await recentValues(topic, Number(count)));
      const events = sample.lines.map((l) => JSON.parse(l) as unknown);
      setChecked({ topic, events: events.length, skipped: sample.skipped, hints: fieldHints(rules, events) });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const names = new Map(rules.map((r) => [r.id, r.name]));
  return (
    <Stack gap="xs">
      <Text size="sm">
        Check the converted rules against a topic: the fields a rule reads that none of the topic's recent events has
        are listed (a rule whose fields never occur never matches).
        {rules.length === 0 ? ' Preview an import first: the check uses the rules it converts.' : ''}
      </Text>
      <Group align="end">
        <Select
          label="Topic to check against"
          searchable
          data={topics.data ?? []}
          value={topic}
          onChange={(t) => {
            setTopic(t);
            setChecked(undefined);
          }}
          w={280}
        />
        <NumberInput label="Recent events per partition" min={1} max={1000} value={count} onChange={setCount} w={220} />
        <Button variant="default" disabled={!topic || rules.length === 0} loading={busy} onClick={() => void check()}>
          Check fields
        </Button>
      </Group>
      <ErrorAlert error={topics.error ?? error} />
      {checked && (
        <div data-testid="field-check" aria-live="polite">
          {checked.events === 0 ? (
            <Alert color="yellow" role="status">
              {checked.topic} has no recent JSON events to check against
              {skippedNote(checked.skipped)}.
            </Alert>
          ) : checked.hints.length === 0 ? (
            <Alert color="green" role="status">
              Every field of the {rules.length} rules occurs in the {checked.events} recent events of {checked.topic}.
            </Alert>
          ) : (
            <Alert color="yellow" role="status">
              <Text size="sm" fw={700}>
                Fields that never occur in {checked.topic}
              </Text>
              <Text size="sm" mb="xs">
                {checked.hints.length} of {rules.length} rules read fields that none of the {checked.events} recent
                events of {checked.topic} has
                {skippedNote(checked.skipped)}: they cannot match those events. If your events hold these fields under
                other names, choose or upload the mapping that puts them there.
              </Text>
              <List size="sm" spacing={4}>
                {checked.hints.map((h) => (
                  <List.Item key={h.rule}>
                    <Text span size="sm" fw={500}>
                      {names.get(h.rule) ?? h.rule}
                    </Text>{' '}
                    (
                    {h.missing.length === h.fields
                      ? `none of its ${h.fields} fields occurs`
                      : `${h.missing.length} of ${h.fields} fields never occur`}
                    ):{' '}
                    {h.missing.map((f, i) => (
                      <span key={f}>
                        {i > 0 ? ', ' : ''}
                        <Code>{f}</Code>
                      </span>
                    ))}
                    {h.similar.length > 0 && (
                      <Text size="sm" c="dimmed">
                        The events have{' '}
                        {h.similar.map((s, i) => (
                          <span key={s.field}>
                            {i > 0 ? ', ' : ''}
                            <Code>{s.present}</Code>
                          </span>
                        ))}{' '}
                        instead
                        {h.similar.every((s) => !s.present.includes('.')) ? (
                          <>
                            : flat events with Sigma's field names fit the <Code>sigma</Code> mapping.
                          </>
                        ) : (
                          ': a mapping (fields, fieldTemplate) that puts the fields there fits these events.'
                        )}
                      </Text>
                    )}
                  </List.Item>
                ))}
              </List>
            </Alert>
          )}
        </div>
      )}
    </Stack>
  );
}
