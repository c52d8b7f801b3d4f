import { Ajv, type ValidateFunction } from 'ajv';
import { describeViolations } from './violations.ts';

export { describeViolations, fieldPath } from './violations.ts';

const options = {
  allErrors: true,
  verbose: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
} as const;

/**
 * The one JSON Schema validator of the node: the resource schemas and every route's schemas (the
 * API sets it as Fastify's validator compiler) compile here, with the same options. Violations are
 * worded by ./violations.ts: `definition.field: is required`, `input.keySerde: must be one of …`.
 */
export const ajv = new Ajv(options);

/**
 * The same validator for query strings, whose values always arrive as text: it turns them into
 * the types their schema declares (`?partition=3` → 3, `?dryRun=true` → true) or refuses them.
 */
const queryAjv = new Ajv({ ...options, coerceTypes: true });

// OpenAPI's `binary` (a multipart file part, checked as its file name): any text
for (const validator of [ajv, queryAjv]) validator.addFormat('binary', true);

export type Validator = (value: unknown) => string[];

export function compileValidator(schema: object): Validator {
  const validate: ValidateFunction = ajv.compile(schema);
  return (value) => (validate(value) ? [] : describeViolations(validate.errors ?? []));
}

/**
 * A schema's compiled check, cached by schema object (route schemas are compiled once per app); a
 * query string's (`httpPart` `querystring`) converts its text values to the declared types.
 */
const compiled = new WeakMap<object, ValidateFunction>();
const compiledQueries = new WeakMap<object, ValidateFunction>();
export function compiledSchema(schema: object, httpPart?: string): ValidateFunction {
  const query = httpPart === 'querystring';
  const cache = query ? compiledQueries : compiled;
  let validate = cache.get(schema);
  if (!validate) {
    validate = (query ? queryAjv : ajv).compile(schema);
    cache.set(schema, validate);
  }
  return validate;
}
