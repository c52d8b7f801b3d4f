import { Button, Code, Group, Stack, Text, Title, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type {
  ConditionExplanation,
  CorrelationStageTrace,
  EmissionTrace,
  EventTrace,
  Explanation,
  StageTrace,
} from '@weir/pdl';
import { useState, type ReactNode } from 'react';
import { errorText } from '../lib/errors.ts';
import { ErrorAlert } from './ErrorAlert.tsx';

/**
 * Why a rule did or did not match (docs/detection-as-code.md, "Explain"): the answer of
 * `POST /api/explain/pdl` shown as the stages each event went through, a query stage as its query
 * tree (every node with its PDL text and ✓ held / ✗ did not hold, a leaf with the fields it read and
 * the values seen, a missing field said so), the stage the event stopped at; a correlation stage
 * with the event's group, the group's window, its count and whether it fired; for a sample, the
 * correlation's emissions and the groups left open at its end.
 */
export function ExplainTree({ explanation, label }: { explanation: Explanation; label: string }) {
  const sample = explanation.events.length > 1 || explanation.correlation !== undefined;
  return (
    <Stack gap="xs" role="region" aria-label={label} data-testid="explanation">
      <Text size="sm" fw={500} data-testid="explain-verdict">
        <Mark ok={explanation.matched} yes="matched" no="no match" />
        {explanation.matched
          ? ` The rule matched: ${plural(explanation.outputs.length, 'output')}.`
          : ' The rule did not match: no output.'}
      </Text>
      {explanation.events.map((e) => (
        <EventView key={e.index} trace={e} showIndex={sample} />
      ))}
      {explanation.correlation !== undefined && explanation.events.length > 1 && (
        <CorrelationSummary correlation={explanation.correlation} />
      )}
    </Stack>
  );
}

/** An Explain button (a disclosure: `aria-expanded`) and, once clicked, the answer of `request` below it; a second click hides it. */
export function ExplainAction({
  label,
  request,
  children,
}: {
  /** The button's text, e.g. "Explain event 2". */
  label: string;
  request: () => Promise<Explanation>;
  children?: ReactNode;
}) {
  const [shown, setShown] = useState(false);
  const [answer, setAnswer] = useState<{ explanation?: Explanation; error?: string }>();
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    if (shown) {
      setShown(false);
      return;
    }
    setShown(true);
    setBusy(true);
    try {
      setAnswer({ explanation: await request() });
    } catch (err) {
      setAnswer({ error: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button
          size="compact-sm"
          variant="default"
          aria-expanded={shown}
          loading={busy}
          leftSection={<span aria-hidden="true">{shown ? '▾' : '▸'}</span>}
          onClick={() => void toggle()}
        >
          {label}
        </Button>
        {children}
      </Group>
      {shown && answer?.error !== undefined && <ErrorAlert error={answer.error} />}
      {shown && answer?.explanation !== undefined && (
        <ExplainTree explanation={answer.explanation} label={label.replace(/^Explain/, 'Explanation of')} />
      )}
    </Stack>
  );
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

/** ✓ or ✗, with the words for a screen reader (and not colour alone). */
function Mark({ ok, yes = 'held', no = 'did not hold' }: { ok: boolean; yes?: string; no?: string }) {
  return (
    <span data-result={ok ? yes : no}>
      <span
        aria-hidden="true"
        style={{ color: ok ? 'var(--mantine-color-green-text)' : 'var(--mantine-color-red-text)', fontWeight: 700 }}
      >
        {ok ? '✓' : '✗'}
      </span>
      <VisuallyHidden component="span">{ok ? yes : no}</VisuallyHidden>
    </span>
  );
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function time(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}

function EventView({ trace, showIndex }: { trace: EventTrace; showIndex: boolean }) {
  const stopped =
    trace.stoppedAt === null
      ? `gave ${plural(trace.outputs, 'output')}`
      : trace.stages.length === 0
        ? 'stopped before stage 0: not a JSON object'
        : `stopped at stage ${trace.stoppedAt}`;
  return (
    <Stack gap={4} data-testid="explain-event">
      <Text size="sm" data-testid="explain-stopped">
        {showIndex ? `Event ${trace.index + 1}: ` : 'The event '}
        {stopped}
      </Text>
      <ol style={{ margin: 0, paddingInlineStart: 0, listStyle: 'none' }} aria-label="Stages">
        {trace.stages.map((s) => (
          <li key={s.stage}>
            <StageView stage={s} stoppedHere={trace.stoppedAt === s.stage} />
          </li>
        ))}
      </ol>
    </Stack>
  );
}

function stageName(s: { stage: number; kind: string }): string {
  return `stage ${s.stage} (${s.kind.replace(/Stage$/, '').toLowerCase()})`;
}

function StageView({ stage, stoppedHere }: { stage: StageTrace; stoppedHere: boolean }) {
  const correlation = 'group' in stage;
  return (
    <Stack gap={2} data-testid="explain-stage">
      <Group gap="xs" wrap="nowrap" align="baseline">
        <Mark
          ok={stage.passed}
          yes={correlation ? 'fired' : 'passed'}
          no={correlation ? 'did not fire' : 'stopped here'}
        />
        <Text size="sm" span>
          {stageName(stage)}
          {stoppedHere ? ', the event stopped here' : ''}
        </Text>
        <Code>{stage.pdl}</Code>
      </Group>
      <div style={{ paddingInlineStart: 20 }}>
        {'condition' in stage && (
          <ul
            style={{ margin: 0, paddingInlineStart: 0, listStyle: 'none' }}
            aria-label={`Query of stage ${stage.stage}`}
          >
            <ConditionNode node={stage.condition} />
          </ul>
        )}
        {correlation && <CorrelationView stage={stage} />}
      </div>
    </Stack>
  );
}

/** One node of the query tree; And, Or and Not fold. */
function ConditionNode({ node }: { node: ConditionExplanation }) {
  const [open, setOpen] = useState(true);
  const operands = node.operands ?? [];
  const where = node.line === undefined ? '' : `line ${node.line}, column ${node.column}`;
  return (
    <li data-testid="explain-node" data-result={node.result ? 'held' : 'did not hold'}>
      <Group gap={6} wrap="nowrap" align="baseline">
        {operands.length > 0 ? (
          <UnstyledButton
            aria-expanded={open}
            aria-label={`Operands of ${node.pdl}`}
            onClick={() => setOpen(!open)}
            style={{ width: 16, fontFamily: 'var(--mantine-font-family-monospace)' }}
          >
            {open ? '▾' : '▸'}
          </UnstyledButton>
        ) : (
          <span style={{ width: 16 }} />
        )}
        <Mark ok={node.result} />
        <Code data-testid="explain-pdl">{node.pdl}</Code>
        {(node.fields ?? []).map((f) => (
          <Text key={f.field} size="sm" span data-testid="explain-field">
            seen: {f.present ? `${f.field} = ${json(f.value)}` : `${f.field} missing`}
          </Text>
        ))}
        {where && (
          <Text size="xs" c="dimmed" span>
            {where}
          </Text>
        )}
      </Group>
      {operands.length > 0 && open && (
        <ul style={{ margin: 0, paddingInlineStart: 22, listStyle: 'none' }}>
          {operands.map((o, i) => (
            <ConditionNode key={i} node={o} />
          ))}
        </ul>
      )}
    </li>
  );
}

function groupText(values: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(values);
  return entries.length === 0
    ? 'the whole stream (no group_by)'
    : entries.map(([k, v]) => `${k} = ${json(v)}`).join(', ');
}

/** "count 3", or a temporal stage's "matched 1 of 2 queries", and the other figures of the state. */
function stateText(state: Readonly<Record<string, unknown>> | null): string {
  if (state === null) return 'none';
  const parts: string[] = [];
  if (typeof state['eventCount'] === 'number') parts.push(`count ${state['eventCount']}`);
  if (typeof state['matched'] === 'number') parts.push(`matched ${state['matched']} of ${json(state['of'])} queries`);
  for (const [k, v] of Object.entries(state)) {
    if (['eventCount', 'matched', 'of', 'function'].includes(k)) continue;
    parts.push(`${k} ${json(v)}`);
  }
  return parts.join(', ');
}

function Fact({ name, children }: { name: string; children: ReactNode }) {
  return (
    <Text size="sm" data-testid={`explain-${name.toLowerCase()}`}>
      <Text span fw={500}>
        {name}:
      </Text>{' '}
      {children}
    </Text>
  );
}

function CorrelationView({ stage }: { stage: CorrelationStageTrace }) {
  return (
    <Stack gap={0}>
      <Fact name="Group">{groupText(stage.group.values)}</Fact>
      <Fact name="Window">
        {stage.window === null ? 'none open' : `${time(stage.window.start)} – ${time(stage.window.end)}`}
      </Fact>
      <Fact name="Count">{stateText(stage.state)}</Fact>
      <Fact name="Counted">
        {stage.counted ? 'yes' : stage.late ? 'no: late, ignored as live' : 'no: the event did not take part'}
      </Fact>
      <Fact name="Fired">{stage.fired ? 'yes' : 'no'}</Fact>
      {(stage.queries ?? []).map((q) => (
        <Stack key={q.label} gap={0}>
          <Text size="sm">Temporal query {q.label}:</Text>
          <ul style={{ margin: 0, paddingInlineStart: 0, listStyle: 'none' }} aria-label={`Temporal query ${q.label}`}>
            <ConditionNode node={q.condition} />
          </ul>
        </Stack>
      ))}
    </Stack>
  );
}

function CorrelationSummary({ correlation }: { correlation: NonNullable<Explanation['correlation']> }) {
  return (
    <Stack gap="xs" data-testid="explain-correlation">
      <Title order={4} size="h6">
        {stageName(correlation)}: {plural(correlation.emissions.length, 'emission')}
      </Title>
      {correlation.emissions.map((e, i) => (
        <EmissionView key={i} emission={e} />
      ))}
      {correlation.openGroups.length > 0 && (
        <Text size="sm">
          Open at the end of the sample:{' '}
          {correlation.openGroups.map((g) => `${groupText(g.group.values)} (${stateText(g.state)})`).join('; ')}
        </Text>
      )}
    </Stack>
  );
}

function EmissionView({ emission }: { emission: EmissionTrace }) {
  const at = emission.atEvent === null ? 'at the end of the sample' : `on event ${emission.atEvent + 1}`;
  const after = emission.stoppedAt === null ? 'came out of the rule' : `stopped at stage ${emission.stoppedAt}`;
  return (
    <Stack gap={2} data-testid="explain-emission">
      <Text size="sm">
        Emitted {at} for {groupText(emission.group.values)}: {stateText(emission.state)}, window{' '}
        {time(emission.window.start)} – {time(emission.window.end)}; {after}
      </Text>
      {emission.stages.length > 0 && (
        <ol style={{ margin: 0, paddingInlineStart: 20, listStyle: 'none' }} aria-label="Stages after the correlation">
          {emission.stages.map((s) => (
            <li key={s.stage}>
              <StageView stage={s} stoppedHere={emission.stoppedAt === s.stage} />
            </li>
          ))}
        </ol>
      )}
    </Stack>
  );
}
