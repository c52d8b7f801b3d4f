import { Button, Fieldset, Group, Select, Stack, TagsInput, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { missingText, pickListChange } from './pick-list.ts';

/** The part of JSON Schema the engine's task schemas use (@weir/contract: task-schemas.ts). */
export interface JsonSchema {
  readonly type?: string;
  readonly enum?: readonly string[];
  readonly minLength?: number;
  readonly items?: JsonSchema;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
}

type Value = Record<string, unknown>;

export interface SchemaFormProps {
  readonly schema: JsonSchema;
  readonly value: Value;
  readonly onChange: (value: Value) => void;
  readonly readOnly: boolean;
  /** Violations by field path (`definition.field`), from the API's refusal. */
  readonly errors: Readonly<Record<string, string>>;
  /** The path of this object in the record (`definition`, `definition.eval[0]`). */
  readonly path: string;
  /** Defaults the engine applies when a field is left out (shown as placeholders). */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /**
   * List fields whose values must be picked from known ids, by field name (e.g. `rules` → the rule
   * ids, `what: 'rule'`); `options` is undefined while they load.
   */
  readonly choices?: Readonly<Record<string, Choices>>;
}

/** The ids a list field's values are picked from, and what one is called in messages (`rule`). */
export interface Choices {
  readonly options: readonly string[] | undefined;
  readonly what: string;
}

const multiline = new Set(['pdl', 'regex', 'value', 'condition']);

/**
 * A form generated from a JSON Schema: one input per property (text, choice, yes/no, list, list of
 * objects), required ones marked, the engine's defaults as placeholders, the API's violation of a
 * field under it. A field left empty is left out of the record (the engine applies its default).
 */
export function SchemaForm({
  schema,
  value,
  onChange,
  readOnly,
  errors,
  path,
  defaults = {},
  choices = {},
}: SchemaFormProps) {
  const required = new Set(schema.required ?? []);
  const set = (key: string, v: unknown) => {
    const next = { ...value };
    if (v === undefined || v === '') delete next[key];
    else next[key] = v;
    onChange(next);
  };
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return <Text size="sm">This function has no parameters.</Text>;
  return (
    <Stack gap="sm">
      {entries.map(([key, field]) => {
        const fieldPath = `${path}.${key}`;
        const common = { label: key, required: required.has(key), error: errors[fieldPath], readOnly };
        const def = defaults[key];
        const placeholder = def === undefined ? undefined : `default: ${String(def)}`;
        if (field.enum) {
          return (
            <Select
              key={key}
              {...common}
              data={[...field.enum]}
              value={(value[key] as string | undefined) ?? null}
              clearable={!required.has(key)}
              placeholder={placeholder}
              onChange={(v) => set(key, v ?? undefined)}
              disabled={readOnly}
            />
          );
        }
        if (field.type === 'boolean') {
          const shown = value[key] === undefined ? '' : String(value[key]);
          return (
            <Select
              key={key}
              {...common}
              disabled={readOnly}
              value={shown}
              data={[
                { value: '', label: def === undefined ? 'not set' : `default (${String(def)})` },
                { value: 'true', label: 'true' },
                { value: 'false', label: 'false' },
              ]}
              onChange={(v) => set(key, v === 'true' ? true : v === 'false' ? false : undefined)}
              allowDeselect={false}
            />
          );
        }
        if (field.type === 'array' && field.items?.type === 'object') {
          const rows = (value[key] as Value[] | undefined) ?? [];
          const setRow = (i: number, row: Value | undefined) =>
            set(key, row === undefined ? rows.filter((_, j) => j !== i) : rows.map((r, j) => (j === i ? row : r)));
          return (
            <Fieldset key={key} legend={`${key}${required.has(key) ? ' *' : ''}`}>
              <Stack gap="sm">
                {errors[fieldPath] && (
                  <Text size="sm" c="var(--mantine-color-error)">
                    {errors[fieldPath]}
                  </Text>
                )}
                {rows.map((row, i) => (
                  <Fieldset key={i} legend={`${key} ${i + 1}`} variant="filled">
                    <SchemaForm
                      schema={field.items!}
                      value={row}
                      onChange={(r) => setRow(i, r)}
                      readOnly={readOnly}
                      errors={errors}
                      path={`${fieldPath}[${i}]`}
                    />
                    {!readOnly && (
                      <Group mt="xs">
                        <Button
                          size="compact-xs"
                          variant="default"
                          onClick={() => setRow(i, undefined)}
                          aria-label={`Remove ${key} ${i + 1}`}
                        >
                          Remove
                        </Button>
                      </Group>
                    )}
                  </Fieldset>
                ))}
                {!readOnly && (
                  <Group>
                    <Button size="compact-sm" variant="default" onClick={() => set(key, [...rows, {}])}>
                      Add {key} step
                    </Button>
                  </Group>
                )}
              </Stack>
            </Fieldset>
          );
        }
        if (field.type === 'array' && choices[key]) {
          return (
            <PickListInput
              key={key}
              {...common}
              choices={choices[key]}
              value={(value[key] as string[] | undefined) ?? []}
              onChange={(v) => set(key, v.length ? v : undefined)}
            />
          );
        }
        if (field.type === 'array') {
          return (
            <TagsInput
              key={key}
              {...common}
              description="Enter or comma after each"
              value={(value[key] as string[] | undefined) ?? []}
              onChange={(v) => set(key, v.length ? v : undefined)}
              disabled={readOnly}
            />
          );
        }
        const text = (value[key] as string | undefined) ?? '';
        return multiline.has(key) ? (
          <Textarea
            key={key}
            {...common}
            autosize
            minRows={1}
            ff="monospace"
            placeholder={placeholder}
            value={text}
            onChange={(e) => set(key, e.currentTarget.value)}
          />
        ) : (
          <TextInput
            key={key}
            {...common}
            placeholder={placeholder}
            value={text}
            onChange={(e) => set(key, e.currentTarget.value)}
          />
        );
      })}
    </Stack>
  );
}

/**
 * A list of ids picked from `choices.options` (searchable): typed text that names no known id is not
 * added, and the field says so; ids already in the record that no longer exist are kept and named
 * under the field (the API's own violation comes first).
 */
function PickListInput({
  label,
  required,
  error,
  readOnly,
  choices,
  value,
  onChange,
}: {
  label: string;
  required: boolean;
  error: string | undefined;
  readOnly: boolean;
  choices: Choices;
  value: string[];
  onChange: (value: string[]) => void;
}) {
  const [refused, setRefused] = useState<string>();
  return (
    <TagsInput
      label={label}
      required={required}
      readOnly={readOnly}
      disabled={readOnly}
      description={`Pick each ${choices.what} from the list (type to search)`}
      data={[...(choices.options ?? [])]}
      value={value}
      error={refused ?? error ?? missingText(value, choices.options, choices.what)}
      onSearchChange={(text) => {
        if (text !== '') setRefused(undefined);
      }}
      onChange={(next) => {
        const change = pickListChange(value, next, choices.options, choices.what);
        setRefused(change.refused);
        onChange(change.value);
      }}
    />
  );
}
