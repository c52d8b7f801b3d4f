import { Ajv, type ValidateFunction } from 'ajv';
import { describeViolations } from './violations.ts';

export { describeViolations, fieldPath } from './violations.ts';

/**
 * The one JSON Schema validator of the node: the resource schemas and every route's schemas (the
 * API sets it as Fastify's validator compiler) compile here, with the same options. Violations are
 * worded by ./violations.ts: `definition.field: is required`, `input.keySerde: must be one of …`.
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

export type Validator = (value: unknown) => string[];

export function compileValidator(schema: object): Validator {
  const validate: ValidateFunction = ajv.compile(schema);
  return (value) => (validate(value) ? [] : describeViolations(validate.errors ?? []));
}

/** A schema's compiled check, cached by schema object (route schemas are compiled once per app). */
const compiled = new WeakMap<object, ValidateFunction>();
export function compiledSchema(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}
