import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  Tabs,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { severities, severityOf, type Rule, type Severity } from '@weir/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { parse } from '@weir/pdl';
import { api } from '../lib/api.ts';
import { BacktestPanel } from '../components/BacktestPanel.tsx';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { ExplainAction } from '../components/ExplainTree.tsx';
import { SigmaMetadata } from '../components/SigmaMetadata.tsx';
import { VersionHistory } from '../components/VersionHistory.tsx';
import { annotationProblems, techniqueOptions, type TechniqueOption } from '../lib/attack-picker.ts';
import { errorText } from '../lib/errors.ts';
import { PdlEditor } from '../pdl/PdlEditor.tsx';
import type { PdlHelpers } from '../pdl/pdlLanguage.ts';
import { lintSampleOf } from '../pdl/pdlLint.ts';
import { useLintSource } from '../pdl/useLintSource.ts';
import { useRouter } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';
import { usePoll } from '../lib/usePoll.ts';
import { sampleNote, topicSample } from './topic-sample.ts';

const empty: Rule = { id: '', name: '', description: '', pdl: '', annotations: [], severity: 'medium', enabled: true };
/** Most severe first, as the rules table lists them. */
const severityChoices = [...severities].reverse().map((s) => ({ value: s, label: s }));

interface Outcome {
  index: number;
  event: unknown;
  matched: boolean;
  output: Record<string, unknown> | null;
  error?: string;
}
interface Sequence {
  events: Record<string, unknown>[];
  outputs: Record<string, unknown>[];
  error?: string;
}

/** Whether the PDL keeps state across events (event_count, distinct_count, sequence, …); false when it does not parse. */
function hasCorrelation(pdl: string): boolean {
  try {
    return parse(pdl).stages.some((s) => s.kind === 'AggregationStage' || s.kind === 'TemporalStage');
  } catch {
    return false;
  }
}

/** "Line L, column C: what" (the parser's message may already start with its position). */
function positioned(s: { message?: string; line?: number; column?: number }): string {
  const what = (s.message ?? '').replace(/^line \d+, column \d+:\s*/i, '');
  return s.line === undefined ? what : `Line ${s.line}, column ${s.column}: ${what}`;
}

/** Parses pasted events: a JSON array, or one JSON object per line. */
export function parseEvents(text: string): Record<string, unknown>[] {
  const t = text.trim();
  if (!t) return [];
  if (t.startsWith('[')) return JSON.parse(t) as Record<string, unknown>[];
  return t
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch (err) {
        throw new Error(`line ${i + 1}: ${(err as Error).message}`, { cause: err });
      }
    });
}

/**
 * The rule editor: PDL with highlighting, completion and live validation; ATT&CK techniques picked
 * from the shipped table; a test panel. A `user` views and tests a rule (a notice says so) and
 * creates none: `/rules/new` tells them only an admin does.
 */
export function RuleEditor({ id }: { id: string | undefined }) {
  const { isAdmin } = useSession();
  const { navigate } = useRouter();
  if (id === undefined && !isAdmin) {
    return (
      <Stack>
        <Title order={1}>New rule</Title>
        <Alert color="blue" title="Only an admin creates rules" role="status">
          Your role (user) views and tests the rules; an admin creates and changes them.
        </Alert>
        <Group>
          <Button variant="default" onClick={() => navigate('/rules')}>
            Back to rules
          </Button>
        </Group>
      </Stack>
    );
  }
  return <RuleForm id={id} isAdmin={isAdmin} />;
}

function RuleForm({ id, isAdmin }: { id: string | undefined; isAdmin: boolean }) {
  const { navigate } = useRouter();
  const [rule, setRule] = useState<Rule>(empty);
  const [loadError, setLoadError] = useState<string>();
  const [saveError, setSaveError] = useState<string>();
  const [syntax, setSyntax] = useState<{ ok: boolean; message?: string; line?: number; column?: number }>();
  const [sample, setSample] = useState('');
  const [outcomes, setOutcomes] = useState<Outcome[]>();
  /** The PDL the shown results were tested with: what Explain explains. */
  const [testedPdl, setTestedPdl] = useState('');
  /** Counts the test runs: each run shows its results with no explanation open. */
  const [testRun, setTestRun] = useState(0);
  const [sequence, setSequence] = useState<Sequence>();
  const [testError, setTestError] = useState<string>();
  const [sampleTopic, setSampleTopic] = useState<string | null>(null);
  const [sampleCount, setSampleCount] = useState<number | string>(20);
  const [sampleInfo, setSampleInfo] = useState<string>();
  const [note, setNote] = useState('');
  const [tab, setTab] = useState<string | null>('rule');
  /** Counts the saves, so the History tab reads the versions again. */
  const [revision, setRevision] = useState(0);
  const lookups = usePoll(() => api.lookups().then((l) => l.map((x) => x.id)), 0);
  const topics = usePoll(() => api.topics(), 0);
  const fields = useMemo(() => {
    try {
      return [...new Set(parseEvents(sample).flatMap((e) => Object.keys(e)))];
    } catch {
      return [];
    }
  }, [sample]);
  const sampleEvents = useMemo(() => {
    try {
      return parseEvents(sample);
    } catch {
      return [];
    }
  }, [sample]);
  const lint = useLintSource(lintSampleOf(sampleEvents, sampleTopic, Number(sampleCount)));
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;
  const lookupsRef = useRef<string[]>([]);
  lookupsRef.current = lookups.data ?? [];
  const helpers = useMemo<PdlHelpers>(
    () => ({
      fields: () => fieldsRef.current,
      lookups: () => lookupsRef.current,
      check: (text) => api.pdlSyntax(text),
      onChecked: setSyntax,
      lint,
    }),
    [lint],
  );

  useEffect(() => {
    if (id === undefined) return;
    api.rules.get(id).then(setRule, (err: unknown) => setLoadError(errorText(err)));
  }, [id]);

  const save = async () => {
    try {
      const changeNote = note.trim() || undefined;
      const saved =
        id === undefined ? await api.rules.create(rule, changeNote) : await api.rules.update(id, rule, changeNote);
      setSaveError(undefined);
      setNote('');
      setRevision((r) => r + 1);
      notifications.show({ color: 'green', message: `Rule ${saved.id} saved` });
      if (id === undefined) navigate(`/rules/${encodeURIComponent(saved.id)}`);
    } catch (err) {
      setSaveError(errorText(err));
    }
  };

  const runTest = async () => {
    setTestError(undefined);
    try {
      const events = parseEvents(sample);
      const pdl = rule.pdl;
      const results: Outcome[] = [];
      for (const [index, event] of events.entries()) {
        try {
          const r = await api.testPdl(pdl, event);
          results.push({ index, event, matched: r.matched, output: r.event });
        } catch (err) {
          results.push({ index, event, matched: false, output: null, error: errorText(err) });
        }
      }
      setTestedPdl(pdl);
      setTestRun((n) => n + 1);
      setOutcomes(results);
      // A correlation also runs over the whole sample as one stream, in order, state kept across events.
      if (hasCorrelation(pdl)) {
        try {
          setSequence({ events, outputs: await api.testPdlSequence(pdl, events) });
        } catch (err) {
          setSequence({ events, outputs: [], error: errorText(err) });
        }
      } else setSequence(undefined);
    } catch (err) {
      setTestError(errorText(err));
    }
  };

  const takeFromTopic = async () => {
    if (!sampleTopic) return;
    try {
      await api.consume(sampleTopic, { offset: 'earliest', maxEvents: Number(sampleCount), maxTimeoutSeconds: 3 });
      let read;
      do {
        await new Promise((r) => setTimeout(r, 300));
        read = await api.consumeRead(sampleTopic, 0);
      } while (read.status === 'RUNNING');
      // Only JSON objects can be tested: other messages are skipped, and the note says how many.
      const taken = topicSample(read.messages.map((m) => m.value));
      setSample(taken.lines.join('\n'));
      setSampleInfo(sampleNote(sampleTopic, taken));
    } catch (err) {
      setTestError(errorText(err));
    }
  };

  const matched = outcomes?.filter((o) => o.matched).length ?? 0;
  const problems = annotationProblems(rule.annotations ?? []);
  const form = (
    <Stack>
      <Group grow align="start">
        <TextInput
          label="Id"
          required
          readOnly={id !== undefined || !isAdmin}
          value={rule.id}
          onChange={(e) => setRule({ ...rule, id: e.currentTarget.value })}
        />
        <TextInput
          label="Name"
          required
          readOnly={!isAdmin}
          value={rule.name}
          onChange={(e) => setRule({ ...rule, name: e.currentTarget.value })}
        />
      </Group>
      <Textarea
        label="Description"
        autosize
        minRows={1}
        maxRows={8}
        readOnly={!isAdmin}
        value={rule.description ?? ''}
        onChange={(e) => setRule({ ...rule, description: e.currentTarget.value })}
      />
      <SigmaMetadata rule={rule} />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="pdl-label">
          PDL
        </Text>
        <PdlEditor
          value={rule.pdl}
          onChange={(pdl) => setRule((r) => ({ ...r, pdl }))}
          helpers={helpers}
          label="PDL query"
          readOnly={!isAdmin}
        />
        <div aria-live="polite" data-testid="pdl-status">
          {syntax === undefined ? null : syntax.ok ? (
            <Badge color="green" variant="dot">
              Valid PDL
            </Badge>
          ) : (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {positioned(syntax)}
            </Text>
          )}
        </div>
      </Stack>
      <Group grow align="end">
        <TagsInput
          label="Annotations: ATT&CK techniques and other tags"
          description="Type a technique's id or name and pick it from the list; other tags are kept as written"
          readOnly={!isAdmin}
          data={techniqueOptions as TechniqueOption[]}
          limit={30}
          value={rule.annotations ?? []}
          error={problems.length ? problems.join('; ') : undefined}
          onChange={(annotations) => setRule({ ...rule, annotations })}
        />
        <Select
          label="Severity"
          description="Alerts carry it; without one a rule is medium"
          readOnly={!isAdmin}
          allowDeselect={false}
          data={severityChoices}
          value={severityOf(rule)}
          onChange={(v) => v && setRule({ ...rule, severity: v as Severity })}
        />
        <Switch
          label="Enabled"
          disabled={!isAdmin}
          checked={rule.enabled}
          onChange={(e) => setRule({ ...rule, enabled: e.currentTarget.checked })}
        />
      </Group>
      <ErrorAlert error={saveError} />
      {isAdmin && (
        <Group align="end">
          <TextInput
            label="Change note (optional)"
            description="Kept with the version this save stores"
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            maxLength={1000}
            w={420}
          />
          <Button onClick={() => void save()}>Save rule</Button>
        </Group>
      )}
      <Card withBorder>
        <Title order={2} size="h4" mb="xs">
          Test
        </Title>
        <Stack>
          <Group align="end">
            <Select
              label="Take events from topic"
              searchable
              data={topics.data ?? []}
              value={sampleTopic}
              onChange={setSampleTopic}
              w={240}
            />
            <NumberInput
              label="How many (from the start)"
              min={1}
              max={1000}
              value={sampleCount}
              onChange={setSampleCount}
              w={200}
            />
            <Button variant="default" disabled={!sampleTopic} onClick={() => void takeFromTopic()}>
              Load events
            </Button>
          </Group>
          {sampleInfo && (
            <Text size="sm" c="dimmed" data-testid="sample-info">
              {sampleInfo}
            </Text>
          )}
          <Textarea
            label="Events (a JSON array, or one JSON object per line)"
            autosize
            minRows={4}
            ff="monospace"
            value={sample}
            onChange={(e) => setSample(e.currentTarget.value)}
          />
          <Group>
            <Button onClick={() => void runTest()} disabled={!rule.pdl || !sample.trim()}>
              Run test
            </Button>
          </Group>
          <ErrorAlert error={testError} />
          {outcomes && (
            <Stack gap="xs" data-testid="test-results">
              <Text size="sm">
                {matched} of {outcomes.length} events matched
              </Text>
              {outcomes.map((o) => (
                <Stack key={`${testRun}#${o.index}`} gap={4} data-testid="test-result">
                  <Group align="start" wrap="nowrap">
                    <Badge variant="dot" color={o.error ? 'red' : o.matched ? 'green' : 'gray'}>
                      {o.error ? 'error' : o.matched ? 'match' : 'no match'}
                    </Badge>
                    <Code block tabIndex={0} style={{ flex: 1 }}>
                      {o.error ?? JSON.stringify(o.output ?? o.event)}
                    </Code>
                  </Group>
                  <ExplainAction
                    label={`Explain event ${o.index + 1}`}
                    request={() => api.explain({ pdl: testedPdl, event: o.event })}
                  />
                </Stack>
              ))}
            </Stack>
          )}
          {sequence && (
            <Stack gap="xs" data-testid="correlation-results">
              <Title order={3} size="h5">
                Correlation over the sample
              </Title>
              <Text size="sm">
                The {sequence.events.length} events fed in order to one run of the rule, its state kept across them (the
                per-event results above see each event alone).
              </Text>
              {sequence.error ? (
                <Alert color="red" role="alert">
                  {sequence.error}
                </Alert>
              ) : (
                <Text size="sm">
                  {sequence.outputs.length} correlation output{sequence.outputs.length === 1 ? '' : 's'}
                </Text>
              )}
              {sequence.outputs.map((o, i) => (
                <Group key={i} align="start" wrap="nowrap">
                  <Badge variant="dot" color="green">
                    output {i + 1}
                  </Badge>
                  <Code block tabIndex={0} style={{ flex: 1 }}>
                    {JSON.stringify(o)}
                  </Code>
                </Group>
              ))}
              <ExplainAction
                key={testRun}
                label="Explain the sample"
                request={() => api.explain({ pdl: testedPdl, events: sequence.events })}
              />
            </Stack>
          )}
        </Stack>
      </Card>
    </Stack>
  );
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{id === undefined ? 'New rule' : `Rule ${id}`}</Title>
        <Button variant="default" onClick={() => navigate('/rules')}>
          Back to rules
        </Button>
      </Group>
      <ErrorAlert error={loadError} />
      {!isAdmin && (
        <Alert color="blue" role="status" data-testid="read-only-notice">
          Read-only: your role (user) views and tests this rule; an admin changes it.
        </Alert>
      )}
      {id === undefined ? (
        form
      ) : (
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List mb="md">
            <Tabs.Tab value="rule">Rule</Tabs.Tab>
            <Tabs.Tab value="history">History</Tabs.Tab>
            <Tabs.Tab value="backtest">Backtest</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="rule">{form}</Tabs.Panel>
          <Tabs.Panel value="history">
            {tab === 'history' && (
              <VersionHistory
                what={`Rule ${id}`}
                id={id}
                source={api.rules}
                canRollBack={isAdmin}
                revision={revision}
                onRolledBack={(restored) => {
                  setRule(restored);
                  setRevision((r) => r + 1);
                }}
              />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="backtest">
            <BacktestPanel rule={rule} topics={topics.data} />
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}
