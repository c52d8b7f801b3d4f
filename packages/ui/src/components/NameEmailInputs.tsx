import { TextInput } from '@mantine/core';

/** A user's name and e-mail inputs (creating or editing a user, one's own profile). */
export function NameEmailInputs<T extends { name: string; email: string }>({
  form,
  onChange,
}: {
  form: T;
  onChange: (form: T) => void;
}) {
  return (
    <>
      <TextInput label="Name" value={form.name} onChange={(e) => onChange({ ...form, name: e.currentTarget.value })} />
      <TextInput
        label="E-mail"
        type="email"
        value={form.email}
        onChange={(e) => onChange({ ...form, email: e.currentTarget.value })}
      />
    </>
  );
}
