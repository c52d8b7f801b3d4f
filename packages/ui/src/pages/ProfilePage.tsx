import { Badge, Button, Card, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { WeirApiError } from '@weir/client';
import { useState } from 'react';
import { api } from '../lib/api.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { NameEmailInputs } from '../components/NameEmailInputs.tsx';
import { errorText } from '../lib/errors.ts';
import { useSession } from '../lib/session.tsx';

/** `/profile`: every user's own name, e-mail and password (roles are shown, only an admin changes them). */
export default function ProfilePage() {
  const session = useSession();
  const user = session.user;
  const [form, setForm] = useState({ name: user?.name ?? '', email: user?.email ?? '' });
  const [saveError, setSaveError] = useState<string>();
  const [pw, setPw] = useState({ current: '', next: '', repeat: '' });
  const [pwError, setPwError] = useState<string>();
  if (!user) return null;

  const save = async () => {
    try {
      await api.updateUser(user.username, {
        username: user.username,
        name: form.name,
        email: form.email,
        password: '',
        roles: user.roles.map((r) => ({ name: r.name })),
      });
      setSaveError(undefined);
      await session.reloadUser();
      notifications.show({ color: 'green', message: 'Profile saved' });
    } catch (err) {
      setSaveError(errorText(err));
    }
  };

  const changePassword = async () => {
    if (!pw.current) return setPwError('Type your current password.');
    if (!pw.next) return setPwError('Type the new password.');
    if (pw.next !== pw.repeat) return setPwError('The two new passwords differ.');
    try {
      // The current password is checked by signing in with it (the API itself does not ask for it).
      await api.login(user.username, pw.current);
    } catch (err) {
      return setPwError(
        err instanceof WeirApiError && err.status === 401 ? 'The current password is wrong.' : errorText(err),
      );
    }
    try {
      await api.updateUser(user.username, {
        username: user.username,
        name: user.name,
        email: user.email,
        password: pw.next,
        roles: user.roles.map((r) => ({ name: r.name })),
      });
    } catch (err) {
      return setPwError(errorText(err));
    }
    // A new password ends every session of the user, this one too: continue with a new one.
    await session.login(user.username, pw.next);
    setPw({ current: '', next: '', repeat: '' });
    setPwError(undefined);
    notifications.show({ color: 'green', message: 'Password changed; your other sessions have ended' });
  };

  return (
    <Stack maw={640}>
      <Title order={1}>Profile</Title>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">
            Your profile
          </Title>
          <TextInput label="Username" readOnly value={user.username} />
          <Group gap={4}>
            <Text size="sm">Roles:</Text>
            {user.roles.map((r) => (
              <Badge key={r.name} variant="outline">
                {r.name}
              </Badge>
            ))}
          </Group>
          <NameEmailInputs form={form} onChange={setForm} />
          <ErrorAlert error={saveError} />
          <Group>
            <Button onClick={() => void save()}>Save profile</Button>
          </Group>
        </Stack>
      </Card>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">
            Change your password
          </Title>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            value={pw.current}
            onChange={(e) => setPw({ ...pw, current: e.currentTarget.value })}
          />
          <Text size="sm">
            The password policy applies: long enough, not your username, not a common password. A new password ends your
            other sessions.
          </Text>
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            value={pw.next}
            onChange={(e) => setPw({ ...pw, next: e.currentTarget.value })}
          />
          <PasswordInput
            label="Repeat the new password"
            autoComplete="new-password"
            value={pw.repeat}
            onChange={(e) => setPw({ ...pw, repeat: e.currentTarget.value })}
          />
          <ErrorAlert error={pwError} />
          <Group>
            <Button onClick={() => void changePassword()}>Change password</Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
