import type { ErrorObject } from 'ajv';

/**
 * The one formatter of JSON Schema violations (request bodies, params and query strings checked
 * by the route schemas, and configuration records checked by their resource schema), so every
 * 400 names each field by its path. Two renderings, both fixed by the spec's examples and the
 * tests: a request part (`body.messages.1 must have required property 'value'`) and a record field
 * (`definition.eval[0].action: must be one of rename, set, remove`).
 *
 * Bounded: at most `maxListedViolations` distinct texts are listed, then `… and N more`, so a body
 * with 100,000 bad elements costs time linear in its size and gets a short answer.
 */
export const maxListedViolations = 20;

/** `/definition/eval/0/action` → `definition.eval[0].action`. */
export function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** One violation of a configuration record, in the resource validation's words. */
function recordViolation(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  const at = fieldPath(e.instancePath) || '(record)';
  switch (e.keyword) {
    case 'required':
      return `${fieldPath(e.instancePath, String(params.missingProperty))}: is required`;
    case 'additionalProperties': {
      const accepted = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return `${fieldPath(e.instancePath, String(params.additionalProperty))}: is not an accepted field; accepted: ${accepted.join(', ')}`;
    }
    case 'enum':
      return `${at}: must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${at}: must be ${JSON.stringify(params.allowedValue)}`;
    case 'not': {
      const excluded = ((e.parentSchema as { not?: { enum?: unknown[] } } | undefined)?.not?.enum ?? []).map((v) => JSON.stringify(v));
      return `${at}: ${excluded.length ? `must not be ${excluded.join(' or ')}` : 'is not accepted'}`;
    }
    case 'pattern':
      return `${at}: ${JSON.stringify(e.data)} does not match ${String(params.pattern)}`;
    default:
      return `${at}: ${e.message ?? 'is invalid'}`;
  }
}

/** One violation of a request part (`body`, `params`, `querystring`, `headers`), as the API has always worded it. */
function requestViolation(e: ErrorObject, part: string): string {
  const params = e.params as Record<string, unknown>;
  const where = `${part}${e.instancePath.replaceAll('/', '.')}`;
  const extra = e.keyword === 'additionalProperties' ? ` '${String(params.additionalProperty)}'`
    : e.keyword === 'enum' ? `: ${(params.allowedValues as unknown[] | undefined)?.join(', ')}` : '';
  return `${where} ${e.message ?? 'is invalid'}${extra}`;
}

function listed(errors: readonly ErrorObject[], render: (e: ErrorObject) => string, limit: number): string[] {
  const out = new Set<string>();
  let rest = 0;
  for (const e of errors) {
    if (e.keyword === 'if') continue; // the failing `then` says what is wrong
    if (out.size >= limit) {
      rest++;
      continue;
    }
    out.add(render(e));
  }
  const texts = [...out];
  if (rest > 0) texts.push(`… and ${rest} more`);
  return texts;
}

/** The violations of a configuration record (`name: is required`). */
export function describeViolations(errors: readonly ErrorObject[], limit = maxListedViolations): string[] {
  return listed(errors, recordViolation, limit);
}

/** The violations of a request part checked by a route schema (`body.username must be string`). */
export function describeRequestViolations(errors: readonly ErrorObject[], part: string, limit = maxListedViolations): string[] {
  return listed(errors, (e) => requestViolation(e, part), limit);
}
