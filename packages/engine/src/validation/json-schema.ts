import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * Precompiled JSON Schema validation that lists every violation with its field path, in words a
 * user can act on: `definition.field: is required`, `input.keySerde: must be one of …`.
 */
const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true });

export type Validator = (value: unknown) => string[];

export function compileValidator(schema: object): Validator {
  const validate: ValidateFunction = ajv.compile(schema);
  return (value) => (validate(value) ? [] : describeViolations(validate.errors ?? []));
}

/** `/definition/eval/0/action` → `definition.eval[0].action`. */
export function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

export function describeViolations(errors: readonly ErrorObject[]): string[] {
  const out: string[] = [];
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    const params = e.params as Record<string, unknown>;
    let text: string;
    switch (e.keyword) {
      case 'required':
        text = `${fieldPath(e.instancePath, String(params.missingProperty)) }: is required`;
        break;
      case 'additionalProperties': {
        const accepted = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
        text = `${fieldPath(e.instancePath, String(params.additionalProperty))}: is not an accepted field; accepted: ${accepted.join(', ')}`;
        break;
      }
      case 'enum':
        text = `${fieldPath(e.instancePath) || '(record)'}: must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
        break;
      case 'const':
        text = `${fieldPath(e.instancePath) || '(record)'}: must be ${JSON.stringify(params.allowedValue)}`;
        break;
      case 'not': {
        const excluded = ((e.parentSchema as { not?: { enum?: unknown[] } } | undefined)?.not?.enum ?? []).map((v) => JSON.stringify(v));
        text = `${fieldPath(e.instancePath) || '(record)'}: ${excluded.length ? `must not be ${excluded.join(' or ')}` : 'is not accepted'}`;
        break;
      }
      case 'pattern':
        text = `${fieldPath(e.instancePath) || '(record)'}: ${JSON.stringify(e.data)} does not match ${String(params.pattern)}`;
        break;
      default:
        text = `${fieldPath(e.instancePath) || '(record)'}: ${e.message ?? 'is invalid'}`;
    }
    if (!out.includes(text)) out.push(text);
  }
  return out;
}
