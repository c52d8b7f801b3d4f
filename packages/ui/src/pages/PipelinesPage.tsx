import { ActionIcon, Badge, Button, Card, Code, Group, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { configKinds, type Pipeline, type Task } from '@weir/contract';
import { useState } from 'react';
import { api } from '../lib/api.ts';
import { ResourcePage, useResourcePage } from '../components/ResourcePage.tsx';
import { RecordFields } from '../components/RecordFields.tsx';
import { SaveBar } from '../components/SaveBar.tsx';
import { useSaveRecord } from '../components/useSaveRecord.ts';
import { errorText } from '../lib/errors.ts';
import { runSteps, type Step } from '../lib/pipeline-steps.ts';
import { usePoll } from '../lib/usePoll.ts';
import { SkippedRules } from '../components/SkippedRules.tsx';

const taskLabel = (id: number, tasks: ReadonlyMap<number, Task>) => {
  const t = tasks.get(id);
  return t ? `${t.id} · ${t.name} (${t.function})` : `${id} · missing task`;
};

/** Pipelines: ordered tasks (drag, or the move buttons), create/edit/delete, a step-by-step test. */
export default function PipelinesPage() {
  // `/pipelines/{id}` (the palette's link) opens that pipeline as a click on its row does; closing goes back to `/pipelines`.
  const page = useResourcePage(configKinds.pipelines, api.pipelines);
  const tasks = usePoll(() => api.tasks.list(), 0);
  const byId = new Map((tasks.data ?? []).map((t) => [t.id, t]));
  return (
    <ResourcePage
      page={page}
      error={tasks.error}
      newRecord={(id) => ({ id, name: '', description: '', tasks: [] })}
      columns={[
        { header: 'Name', cell: (p) => p.name },
        { header: 'Tasks, in order', cell: (p) => p.tasks.map((id) => taskLabel(id, byId)).join(' → ') },
      ]}
      versions={api.pipelines}
      editor={(open, readOnly) => (
        <PipelineEditor
          initial={open.record}
          isNew={open.isNew}
          readOnly={readOnly}
          tasks={byId}
          onSaved={page.saved}
        />
      )}
    />
  );
}

function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

function PipelineEditor({
  initial,
  isNew,
  readOnly,
  tasks,
  onSaved,
}: {
  initial: Pipeline;
  isNew: boolean;
  readOnly: boolean;
  tasks: ReadonlyMap<number, Task>;
  onSaved: (p: Pipeline) => void;
}) {
  const [pipeline, setPipeline] = useState<Pipeline>(initial);
  const { save, error, errors, dirty } = useSaveRecord(api.pipelines, configKinds.pipelines, pipeline, isNew, onSaved);
  const [adding, setAdding] = useState<string | null>(null);
  const [dragged, setDragged] = useState<number>();
  const [raw, setRaw] = useState('');
  const [steps, setSteps] = useState<Step[]>();
  const [final, setFinal] = useState<{ ok: boolean; text: string; warnings?: readonly string[] }>();
  const [announce, setAnnounce] = useState('');
  const setTasks = (list: number[], message?: string) => {
    setPipeline({ ...pipeline, tasks: list });
    if (message) setAnnounce(message);
  };
  const test = async () => {
    setFinal(undefined);
    const list = pipeline.tasks.map((id) => tasks.get(id)).filter((t): t is Task => t !== undefined);
    setSteps(await runSteps(list, raw));
    if (!isNew && !dirty) {
      try {
        const outcome = await api.testPipelineOutcome(pipeline.id, raw);
        setFinal({ ok: true, text: JSON.stringify(outcome.result, null, 2), warnings: outcome.warnings });
      } catch (err) {
        setFinal({ ok: false, text: errorText(err) });
      }
    }
  };
  const choices = [...tasks.values()].map((t) => ({ value: String(t.id), label: taskLabel(t.id, tasks) }));
  return (
    <Stack>
      <RecordFields record={pipeline} onChange={setPipeline} isNew={isNew} readOnly={readOnly} errors={errors} />
      <Text size="sm" fw={500} id="pipeline-tasks-label">
        Tasks, in the order they run{readOnly ? '' : ' (drag a row, or use its move buttons)'}
      </Text>
      {errors.tasks && (
        <Text size="sm" c="var(--mantine-color-error)">
          {errors.tasks}
        </Text>
      )}
      <ol
        aria-labelledby="pipeline-tasks-label"
        style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}
        data-testid="pipeline-tasks"
      >
        {pipeline.tasks.map((id, i) => (
          <li
            key={`${id}-${i}`}
            draggable={!readOnly}
            data-testid="pipeline-task"
            onDragStart={(e) => {
              setDragged(i);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', String(i));
            }}
            onDragOver={(e) => {
              if (dragged !== undefined) e.preventDefault();
            }}
            onDrop={(e) => {
              e.preventDefault();
              if (dragged !== undefined && dragged !== i)
                setTasks(move(pipeline.tasks, dragged, i), `Task ${id} moved to position ${i + 1}`);
              setDragged(undefined);
            }}
            onDragEnd={() => setDragged(undefined)}
            style={{
              border: '1px solid var(--mantine-color-default-border)',
              borderRadius: 4,
              padding: '6px 8px',
              marginBottom: 6,
              cursor: readOnly ? 'default' : 'grab',
              opacity: dragged === i ? 0.5 : 1,
            }}
          >
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm">
                <Badge variant="light" mr="xs">
                  {i + 1}
                </Badge>
                {taskLabel(id, tasks)}
              </Text>
              {!readOnly && (
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="default"
                    disabled={i === 0}
                    aria-label={`Move task ${id} up`}
                    onClick={() => setTasks(move(pipeline.tasks, i, i - 1), `Task ${id} moved to position ${i}`)}
                  >
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    disabled={i === pipeline.tasks.length - 1}
                    aria-label={`Move task ${id} down`}
                    onClick={() => setTasks(move(pipeline.tasks, i, i + 1), `Task ${id} moved to position ${i + 2}`)}
                  >
                    ↓
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    aria-label={`Remove task ${id}`}
                    onClick={() =>
                      setTasks(
                        pipeline.tasks.filter((_, j) => j !== i),
                        `Task ${id} removed`,
                      )
                    }
                  >
                    ✕
                  </ActionIcon>
                </Group>
              )}
            </Group>
          </li>
        ))}
      </ol>
      <div
        aria-live="polite"
        className="visually-hidden"
        style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
      >
        {announce}
      </div>
      {pipeline.tasks.length === 0 && <Text size="sm">No task yet.</Text>}
      {!readOnly && (
        <Group align="end">
          <Select label="Task to add" searchable data={choices} value={adding} onChange={setAdding} w={360} />
          <Button
            variant="default"
            disabled={!adding}
            onClick={() => {
              setTasks([...pipeline.tasks, Number(adding)], `Task ${adding} added`);
              setAdding(null);
            }}
          >
            Add task
          </Button>
        </Group>
      )}
      <SaveBar what="pipeline" error={error} readOnly={readOnly} unsaved={dirty && !isNew} onSave={() => void save()} />
      <Title order={2} size="h4">
        Test with raw text
      </Title>
      <Textarea
        label="Raw record text"
        autosize
        minRows={2}
        ff="monospace"
        placeholder="user=alice action=login status=failed"
        value={raw}
        onChange={(e) => setRaw(e.currentTarget.value)}
      />
      <Group>
        <Button variant="default" disabled={!raw || pipeline.tasks.length === 0} onClick={() => void test()}>
          Run pipeline test
        </Button>
      </Group>
      {steps && (
        <Stack gap="xs" data-testid="pipeline-steps">
          {steps.map((s, i) => (
            <Card key={i} withBorder padding="xs" data-testid="pipeline-step">
              <Text size="sm" fw={600}>
                Step {i + 1}: {taskLabel(s.task.id, tasks)}
              </Text>
              {s.error ? (
                <Text size="sm" c="var(--mantine-color-error)" role="alert">
                  {s.error}
                </Text>
              ) : s.outputs.length === 0 ? (
                <Text size="sm">No output: the record was dropped here.</Text>
              ) : (
                s.outputs.map((o, j) => (
                  <Code key={j} block>
                    {typeof o === 'string' ? o : JSON.stringify(o, null, 2)}
                  </Code>
                ))
              )}
            </Card>
          ))}
          {steps.length < pipeline.tasks.length && !steps.at(-1)?.error && (
            <Text size="sm">The remaining tasks received nothing.</Text>
          )}
          {final && (
            <Card withBorder padding="xs">
              <Text size="sm" fw={600}>
                Result of the saved pipeline (the engine's run)
              </Text>
              <SkippedRules warnings={final.warnings} testId="pipeline-test-warnings" />
              {final.ok ? (
                <Code block data-testid="pipeline-result">
                  {final.text}
                </Code>
              ) : (
                <Text size="sm" c="var(--mantine-color-error)" role="alert">
                  {final.text}
                </Text>
              )}
            </Card>
          )}
        </Stack>
      )}
    </Stack>
  );
}
