import { PasswordInput, TextInput } from '@mantine/core';
import { useState } from 'react';
import { CenteredForm } from '../components/CenteredForm.tsx';
import { useSession } from '../lib/session.tsx';

export function LoginPage() {
  const session = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  return (
    <CenteredForm
      title="Sign in to Weir"
      width={360}
      submitLabel="Sign in"
      onSubmit={async () => {
        await session.login(username, password);
      }}
    >
      <TextInput
        label="Username"
        autoComplete="username"
        required
        value={username}
        onChange={(e) => setUsername(e.currentTarget.value)}
        data-autofocus
      />
      <PasswordInput
        label="Password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
      />
    </CenteredForm>
  );
}
