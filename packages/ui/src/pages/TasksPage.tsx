import { Alert, Button, Code, Group, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { configKinds, taskDefaults, taskFunctions as taskSchemas, type Task, type TaskFunction } from '@weir/contract';
import { useState } from 'react';
import { api } from '../lib/api.ts';
import { ResourcePage, useResourcePage } from '../components/ResourcePage.tsx';
import { RecordFields } from '../components/RecordFields.tsx';
import { SaveBar } from '../components/SaveBar.tsx';
import { useSaveRecord } from '../components/useSaveRecord.ts';
import { errorText } from '../lib/errors.ts';
import { SchemaForm, type JsonSchema } from '../forms/SchemaForm.tsx';
import { quoted, unknownValues } from '../forms/pick-list.ts';
import { usePoll } from '../lib/usePoll.ts';
import { SkippedRules } from '../components/SkippedRules.tsx';

const functions = Object.keys(taskSchemas) as TaskFunction[];

/** Tasks: list; a form per task function generated from the schema the API validates with; test on an event. */
export default function TasksPage() {
  // `/tasks/{id}` (the palette's link) opens that task as a click on its row does; closing goes back to `/tasks`.
  const page = useResourcePage(configKinds.tasks, api.tasks);
  return (
    <ResourcePage
      page={page}
      newRecord={(id): Task => ({
        id,
        name: '',
        description: '',
        function: 'PARSE_KV',
        definition: {},
      })}
      columns={[
        { header: 'Name', cell: (t) => t.name },
        { header: 'Function', cell: (t) => <Code>{t.function}</Code> },
        { header: 'Description', cell: (t) => t.description },
      ]}
      versions={api.tasks}
      editor={(open, readOnly) => (
        <TaskEditor initial={open.record} isNew={open.isNew} readOnly={readOnly} onSaved={page.saved} />
      )}
    />
  );
}

function TaskEditor({
  initial,
  isNew,
  readOnly,
  onSaved,
}: {
  initial: Task;
  isNew: boolean;
  readOnly: boolean;
  onSaved: (t: Task) => void;
}) {
  const [task, setTask] = useState<Task>(initial);
  const { save, error, errors, dirty } = useSaveRecord(api.tasks, configKinds.tasks, task, isNew, onSaved);
  const [event, setEvent] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string; warnings?: readonly string[] }>();
  const [refusal, setRefusal] = useState<string>();
  const rules = usePoll(() => api.rules.list().then((r) => r.map((x) => x.id)), 0);
  const fn = task.function as TaskFunction;
  const test = async () => {
    try {
      const outcome = await api.testTaskOutcome(task.id, event);
      setResult({ ok: true, text: JSON.stringify(outcome.result, null, 2), warnings: outcome.warnings });
    } catch (err) {
      setResult({ ok: false, text: errorText(err) });
    }
  };
  // The API accepts an APPLY_RULES task naming a rule that does not exist (the engine skips it); the
  // console does not save one.
  const onSave = () => {
    const refused = fn === 'APPLY_RULES' ? missingRulesRefusal(task.definition.rules, rules) : undefined;
    setRefusal(refused);
    if (refused === undefined) void save();
  };
  return (
    <Stack>
      <RecordFields record={task} onChange={setTask} isNew={isNew} readOnly={readOnly} errors={errors} />
      <Select
        label="Function"
        required
        disabled={readOnly}
        data={functions}
        value={task.function}
        allowDeselect={false}
        error={errors.function}
        onChange={(v) => v && setTask({ ...task, function: v as TaskFunction, definition: {} })}
      />
      <SchemaForm
        schema={taskSchemas[fn] as JsonSchema}
        value={task.definition}
        onChange={(definition) => setTask({ ...task, definition })}
        readOnly={readOnly}
        errors={errors}
        path="definition"
        defaults={taskDefaults[fn]}
        choices={{ rules: { options: rules.data, what: 'rule' } }}
      />
      <SaveBar what="task" error={refusal ?? error} readOnly={readOnly} unsaved={dirty && !isNew} onSave={onSave} />
      <Title order={2} size="h4">
        Test on an event
      </Title>
      <Textarea
        label="Event (raw text, or a JSON event)"
        autosize
        minRows={2}
        ff="monospace"
        value={event}
        onChange={(e) => setEvent(e.currentTarget.value)}
      />
      {(isNew || dirty) && (
        <Text size="sm">The test runs the saved task{isNew ? ': save it first' : ' (save to test your changes)'}.</Text>
      )}
      <Group>
        <Button variant="default" disabled={isNew || !event} onClick={() => void test()}>
          Run task test
        </Button>
      </Group>
      <SkippedRules warnings={result?.warnings} testId="task-test-warnings" />
      {result &&
        (result.ok ? (
          <Code block data-testid="task-test-result">
            {result.text}
          </Code>
        ) : (
          <Alert color="red" role="alert" data-testid="task-test-result">
            {result.text}
          </Alert>
        ))}
    </Stack>
  );
}

/** Why an APPLY_RULES task cannot be saved from the console: it names rules that do not exist, or they cannot be checked. */
function missingRulesRefusal(
  named: unknown,
  rules: { data: readonly string[] | undefined; error: string | undefined },
): string | undefined {
  const ids = Array.isArray(named) ? named.filter((r): r is string => typeof r === 'string') : [];
  if (ids.length === 0) return undefined;
  if (rules.data === undefined)
    return `The rules could not be checked: ${rules.error ?? 'the list of rules is still loading'}`;
  const missing = unknownValues(ids, rules.data);
  if (missing.length === 0) return undefined;
  return `definition.rules: ${missing.length === 1 ? 'the rule' : 'the rules'} ${quoted(missing)} ${
    missing.length === 1 ? 'does' : 'do'
  } not exist. Pick existing rules (the engine skips a rule that does not exist).`;
}
