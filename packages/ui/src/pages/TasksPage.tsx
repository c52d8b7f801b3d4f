import { Alert, Button, Code, Group, Select, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { taskDefaults, taskFunctions as taskSchemas, type Task, type TaskFunction } from '@weir/contract';
import { useState } from 'react';
import { api } from '../lib/api.ts';
import { ConfirmDelete, nextId } from '../components/ConfirmDelete.tsx';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { NotFoundAlert } from '../components/NotFoundAlert.tsx';
import { RecordDrawer } from '../components/RecordDrawer.tsx';
import { RecordFields } from '../components/RecordFields.tsx';
import { RowActions } from '../components/RowActions.tsx';
import { SaveBar } from '../components/SaveBar.tsx';
import { useOpenRecord } from '../components/useOpenRecord.ts';
import { useSaveRecord } from '../components/useSaveRecord.ts';
import { errorText } from '../lib/errors.ts';
import { SchemaForm, type JsonSchema } from '../forms/SchemaForm.tsx';
import { useSession } from '../lib/session.tsx';
import { usePoll } from '../lib/usePoll.ts';

const functions = Object.keys(taskSchemas) as TaskFunction[];

/** Tasks: list; a form per task function generated from the schema the API validates with; test on an event. */
export default function TasksPage() {
  const { isAdmin } = useSession();
  const tasks = usePoll(() => api.tasks.list(), 0);
  const [deleting, setDeleting] = useState<Task>();
  // `/tasks/{id}` (the palette's link) opens that task as a click on its row does; closing goes back to `/tasks`.
  const { open, show, close, notFound, closeLink } = useOpenRecord('/tasks', tasks.data, (t) => String(t.id));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Tasks</Title>
        {isAdmin && (
          <Button
            onClick={() =>
              show({ id: nextId(tasks.data), name: '', description: '', function: 'PARSE_KV', definition: {} }, true)
            }
          >
            New task
          </Button>
        )}
      </Group>
      <ErrorAlert error={tasks.error} />
      <NotFoundAlert what="task" id={notFound} onClose={closeLink} />
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Id</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Function</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(tasks.data ?? []).map((t) => (
            <Table.Tr key={t.id} data-testid="task-row">
              <Table.Td>{t.id}</Table.Td>
              <Table.Td>{t.name}</Table.Td>
              <Table.Td>
                <Code>{t.function}</Code>
              </Table.Td>
              <Table.Td>{t.description}</Table.Td>
              <Table.Td>
                <RowActions
                  what={`task ${t.id}`}
                  isAdmin={isAdmin}
                  onOpen={() => show(t)}
                  onDelete={() => setDeleting(t)}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm">{tasks.data?.length ?? 0} tasks</Text>
      <RecordDrawer
        opened={open !== undefined}
        onClose={close}
        title={open?.isNew ? 'New task' : `Task ${open?.record.id ?? ''}`}
      >
        {open && (
          <TaskEditor
            key={`${open.record.id}-${open.isNew}`}
            initial={open.record}
            isNew={open.isNew}
            readOnly={!isAdmin}
            onSaved={(t) => {
              tasks.reload();
              show(t);
            }}
          />
        )}
      </RecordDrawer>
      <ConfirmDelete
        what={deleting && `task ${deleting.id} (${deleting.name})`}
        onClose={() => setDeleting(undefined)}
        onConfirm={async () => {
          await api.tasks.delete(deleting!.id);
          setDeleting(undefined);
          tasks.reload();
        }}
      />
    </Stack>
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
  const { save, error, errors, dirty } = useSaveRecord(api.tasks, 'Task', task, isNew, onSaved);
  const [event, setEvent] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string }>();
  const rules = usePoll(() => api.rules.list().then((r) => r.map((x) => x.id)), 0);
  const fn = task.function as TaskFunction;
  const test = async () => {
    try {
      setResult({ ok: true, text: JSON.stringify(await api.testTask(task.id, event), null, 2) });
    } catch (err) {
      setResult({ ok: false, text: errorText(err) });
    }
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
        suggestions={{ rules: rules.data ?? [] }}
      />
      <SaveBar what="task" error={error} readOnly={readOnly} unsaved={dirty && !isNew} onSave={() => void save()} />
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
