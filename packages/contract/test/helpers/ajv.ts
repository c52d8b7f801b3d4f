import { Ajv } from 'ajv';

/**
 * A JSON Schema validator with the engine's options (packages/engine/src/validation/json-schema.ts,
 * which the contract's tests may not import), so a schema accepts here exactly what the API accepts.
 */
export const ajv = new Ajv({
  allErrors: true,
  verbose: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
});

/** A schema's check: `[]` when the value is valid, else each violation as `<path> <keyword>` (`/id minimum`). */
export function violationsOf(schema: object): (value: unknown) => string[] {
  const validate = ajv.compile(schema);
  return (value) =>
    validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.keyword}`.trim());
}
