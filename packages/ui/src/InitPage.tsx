import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api } from './api.ts';
import { ErrorAlert } from './components/ErrorAlert.tsx';
import { errorText } from './errors.ts';
import { useSession } from './session.tsx';

/** First run (`GET /api/init` said false): create the first user, an admin. */
export function InitPage() {
  const session = useSession();
  const [form, setForm] = useState({ name: '', username: '', email: '', password: '' });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof form) => (e: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: e.currentTarget.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await api.init({ ...form, roles: [{ name: 'admin' }] });
      session.initialized();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center h="100vh" component="main">
      <Paper withBorder p="xl" w={420} component="form" onSubmit={submit}>
        <Stack>
          <Title order={1} size="h2">
            Welcome to Weir
          </Title>
          <Text size="sm">Create the first user. It gets the admin role.</Text>
          <ErrorAlert error={error} />
          <TextInput label="Name" required value={form.name} onChange={set('name')} />
          <TextInput
            label="Username"
            required
            autoComplete="username"
            value={form.username}
            onChange={set('username')}
          />
          <TextInput label="E-mail" type="email" required value={form.email} onChange={set('email')} />
          <PasswordInput
            label="Password"
            required
            autoComplete="new-password"
            value={form.password}
            onChange={set('password')}
          />
          <Button type="submit" loading={busy}>
            Create admin
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
