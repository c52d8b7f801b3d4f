import { PasswordInput, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api } from '../lib/api.ts';
import { CenteredForm } from '../components/CenteredForm.tsx';
import { useSession } from '../lib/session.tsx';

/** First run (`GET /api/init` said false): create the first user, an admin. */
export function InitPage() {
  const session = useSession();
  const [form, setForm] = useState({ name: '', username: '', email: '', password: '' });
  const set = (k: keyof typeof form) => (e: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: e.currentTarget.value });
  const submit = async () => {
    await api.init({ ...form, roles: [{ name: 'admin' }] });
    session.initialized();
  };
  return (
    <CenteredForm
      title="Welcome to Weir"
      width={420}
      intro={<Text size="sm">Create the first user. It gets the admin role.</Text>}
      submitLabel="Create admin"
      onSubmit={submit}
    >
      <TextInput label="Name" required value={form.name} onChange={set('name')} />
      <TextInput label="Username" required autoComplete="username" value={form.username} onChange={set('username')} />
      <TextInput label="E-mail" type="email" required value={form.email} onChange={set('email')} />
      <PasswordInput
        label="Password"
        required
        autoComplete="new-password"
        value={form.password}
        onChange={set('password')}
      />
    </CenteredForm>
  );
}
