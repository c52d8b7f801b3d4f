import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { roleNames, type RoleName, type User } from '@weir/contract';
import { useMemo, useState } from 'react';
import { api } from '../lib/api.ts';
import { ConfirmDelete } from '../components/ConfirmDelete.tsx';
import { DeleteButton } from '../components/DeleteButton.tsx';
import { useDialog, type DialogProps } from '../components/dialog.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { NameEmailInputs } from '../components/NameEmailInputs.tsx';
import { NotFoundAlert } from '../components/NotFoundAlert.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { errorText } from '../lib/errors.ts';
import { useRouter } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';
import { usePoll } from '../lib/usePoll.ts';

/** `/users` (admin): list, create, edit name/e-mail/roles, reset a password, delete; `/users/{username}` opens that user. */
export default function UsersPage() {
  const { isAdmin, user: me } = useSession();
  const { path, navigate } = useRouter();
  if (!isAdmin) {
    return (
      <Stack>
        <Title order={1}>Users</Title>
        <Text>
          Only an admin manages users. Your own name, e-mail and password are on your{' '}
          <Anchor
            href="/profile"
            onClick={(e) => {
              e.preventDefault();
              navigate('/profile');
            }}
          >
            profile
          </Anchor>
          .
        </Text>
      </Stack>
    );
  }
  const opened = path.startsWith('/users/') ? decodeURIComponent(path.slice('/users/'.length)) : undefined;
  return <UsersTable me={me?.username} opened={opened} navigate={navigate} />;
}

function UsersTable({
  me,
  opened,
  navigate,
}: {
  me: string | undefined;
  opened: string | undefined;
  navigate: (to: string) => void;
}) {
  const users = usePoll(() => api.users(), 0);
  const [search, setSearch] = useState('');
  const creating = useDialog(users.reload);
  const [resetting, setResetting] = useState<User>();
  const [deleting, setDeleting] = useState<User>();
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    const all = [...(users.data ?? [])].sort((a, b) => a.username.localeCompare(b.username));
    return q
      ? all.filter((u) =>
          `${u.username}\n${u.name}\n${u.email}\n${u.roles.map((r) => r.name).join(' ')}`.toLowerCase().includes(q),
        )
      : all;
  }, [users.data, search]);
  const editing = opened === undefined ? undefined : users.data?.find((u) => u.username === opened);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Users</Title>
        <Button onClick={creating.open}>Create user</Button>
      </Group>
      <ErrorAlert error={users.error} />
      <NotFoundAlert what="user" id={opened !== undefined && users.data && !editing ? opened : undefined} />
      <TextInput
        label="Search users"
        placeholder="username, name, e-mail or role"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      <Table striped highlightOnHover aria-label="Users">
        <TableHead headers={['Username', 'Name', 'E-mail', 'Roles', 'Actions']} />
        <Table.Tbody>
          {shown.map((u) => (
            <Table.Tr key={u.username} data-testid="user-row">
              <Table.Td>
                {u.username}
                {u.username === me ? ' (you)' : ''}
              </Table.Td>
              <Table.Td>{u.name}</Table.Td>
              <Table.Td>{u.email}</Table.Td>
              <Table.Td>
                {u.roles.map((r) => (
                  <Badge key={r.name} variant="outline" mr={4}>
                    {r.name}
                  </Badge>
                ))}
              </Table.Td>
              <Table.Td>
                <Group gap="xs">
                  <Button
                    size="compact-xs"
                    variant="outline"
                    aria-label={`Edit ${u.username}`}
                    onClick={() => navigate(`/users/${encodeURIComponent(u.username)}`)}
                  >
                    Edit
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="outline"
                    aria-label={`Reset password of ${u.username}`}
                    onClick={() => setResetting(u)}
                  >
                    Reset password
                  </Button>
                  <DeleteButton
                    what={u.username}
                    disabled={u.username === me}
                    title={u.username === me ? 'Nobody can delete their own user' : undefined}
                    onClick={() => setDeleting(u)}
                  />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" data-testid="user-count">
        {shown.length} of {users.data?.length ?? 0} users
      </Text>
      <CreateUser {...creating.props} />
      {editing && (
        <EditUser
          key={editing.username}
          user={editing}
          self={editing.username === me}
          onClose={() => navigate('/users')}
          onSaved={() => {
            navigate('/users');
            users.reload();
          }}
        />
      )}
      {resetting && (
        <ResetPassword user={resetting} self={resetting.username === me} onClose={() => setResetting(undefined)} />
      )}
      {deleting && (
        <ConfirmDelete
          what={`user ${deleting.username}`}
          message={`This deletes ${deleting.username} (${deleting.name || 'no name'}) and ends all of their sessions at once.`}
          confirmLabel={`Delete ${deleting.username}`}
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await api.deleteUser(deleting.username);
            notifications.show({ color: 'green', message: `User ${deleting.username} deleted` });
            setDeleting(undefined);
            users.reload();
          }}
        />
      )}
    </Stack>
  );
}

function RolePicker({ value, onChange }: { value: RoleName[]; onChange: (v: RoleName[]) => void }) {
  return (
    <Checkbox.Group label="Roles" value={value} onChange={(v) => onChange(v as RoleName[])}>
      <Text size="sm">admin: every write and user management; user: read-only, and their own profile.</Text>
      <Group mt="xs">
        {roleNames.map((r) => (
          <Checkbox key={r} value={r} label={r} />
        ))}
      </Group>
    </Checkbox.Group>
  );
}

function CreateUser({ opened, onClose, onDone }: DialogProps) {
  const [form, setForm] = useState({ name: '', username: '', email: '', password: '', roles: ['user'] as RoleName[] });
  const [error, setError] = useState<string>();
  const submit = async () => {
    if (!form.username.trim()) return setError('The username is required.');
    if (!form.password) return setError('A password is required.');
    if (form.roles.length === 0) return setError('Choose at least one role.');
    try {
      const created = await api.createUser({
        ...form,
        username: form.username.trim(),
        roles: form.roles.map((name) => ({ name })),
      });
      notifications.show({ color: 'green', message: `User ${created.username} created` });
      setForm({ name: '', username: '', email: '', password: '', roles: ['user'] as RoleName[] });
      setError(undefined);
      onDone();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Create user">
      <Stack>
        <ErrorAlert error={error} />
        <TextInput
          label="Username"
          required
          placeholder="letters, digits, _ . @ -"
          value={form.username}
          onChange={(e) => setForm({ ...form, username: e.currentTarget.value })}
        />
        <NameEmailInputs form={form} onChange={setForm} />
        <PasswordInput
          label="Password"
          required
          value={form.password}
          onChange={(e) => setForm({ ...form, password: e.currentTarget.value })}
        />
        <RolePicker value={form.roles} onChange={(roles) => setForm({ ...form, roles })} />
        <Button onClick={() => void submit()}>Create</Button>
      </Stack>
    </Modal>
  );
}

function EditUser({
  user,
  self,
  onClose,
  onSaved,
}: {
  user: User;
  self: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const session = useSession();
  const [form, setForm] = useState({ name: user.name, email: user.email, roles: user.roles.map((r) => r.name) });
  const [error, setError] = useState<string>();
  const rolesChanged =
    form.roles.length !== user.roles.length || form.roles.some((r) => !user.roles.some((u) => u.name === r));
  const submit = async () => {
    if (form.roles.length === 0) return setError('Choose at least one role.');
    try {
      await api.updateUser(user.username, {
        username: user.username,
        name: form.name,
        email: form.email,
        password: '',
        roles: form.roles.map((name) => ({ name })),
      });
      notifications.show({ color: 'green', message: `User ${user.username} saved` });
      // A change of roles ends every session of that user, this one too when it is yours.
      if (self && rolesChanged) await session.logout();
      else onSaved();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Modal opened onClose={onClose} title={`Edit user ${user.username}`}>
      <Stack>
        <ErrorAlert error={error} />
        <NameEmailInputs form={form} onChange={setForm} />
        <RolePicker value={form.roles} onChange={(roles) => setForm({ ...form, roles })} />
        {rolesChanged && (
          <Text size="sm" role="status">
            {self
              ? 'Changing your own roles signs you out; sign in again to continue.'
              : `Changing roles signs ${user.username} out of every session.`}
          </Text>
        )}
        <Button onClick={() => void submit()}>Save user</Button>
      </Stack>
    </Modal>
  );
}

function ResetPassword({ user, self, onClose }: { user: User; self: boolean; onClose: () => void }) {
  const session = useSession();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string>();
  const submit = async () => {
    if (!password) return setError('Type the new password.');
    if (password !== repeat) return setError('The two passwords differ.');
    try {
      await api.updateUser(user.username, {
        username: user.username,
        name: user.name,
        email: user.email,
        password,
        roles: user.roles.map((r) => ({ name: r.name })),
      });
      notifications.show({ color: 'green', message: `Password of ${user.username} reset; their sessions have ended` });
      // A new password ends every session of the user: for yourself, sign in again with it.
      if (self) await session.login(user.username, password);
      onClose();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Modal opened onClose={onClose} title={`Reset password of ${user.username}`}>
      <Stack>
        <ErrorAlert error={error} />
        <Text size="sm">The new password ends every session of {user.username}.</Text>
        <PasswordInput
          label="New password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <PasswordInput
          label="Repeat the new password"
          required
          value={repeat}
          onChange={(e) => setRepeat(e.currentTarget.value)}
        />
        <Button onClick={() => void submit()}>Set password</Button>
      </Stack>
    </Modal>
  );
}
