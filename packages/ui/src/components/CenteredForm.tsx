import { Button, Center, Paper, Stack, Title } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { errorText } from '../lib/errors.ts';
import { ErrorAlert } from './ErrorAlert.tsx';

/** A form alone in the middle of the page (sign-in, first run): its title, the refusal, its fields, a busy submit. */
export function CenteredForm({
  title,
  width,
  intro,
  submitLabel,
  onSubmit,
  children,
}: {
  title: string;
  width: number;
  intro?: ReactNode;
  submitLabel: string;
  onSubmit: () => Promise<void>;
  children: ReactNode;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await onSubmit();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center h="100vh" component="main">
      <Paper withBorder p="xl" w={width} component="form" onSubmit={submit}>
        <Stack>
          <Title order={1} size="h2">
            {title}
          </Title>
          {intro}
          <ErrorAlert error={error} />
          {children}
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
