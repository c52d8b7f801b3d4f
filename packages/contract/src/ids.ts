/**
 * The two kinds of resource id (spec: Resources): integers (tasks, pipelines, topologies) and texts
 * (rules, lookups). Each rule is written once here, as JSON Schema for bodies and as a check for
 * ids in URL paths, with the words error messages use.
 */
export const integerId = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
export const integerIdRule = `an integer from 0 to ${Number.MAX_SAFE_INTEGER}`;

/** String ids appear in URL paths: no whitespace, `/`, `?`, `#`, `%` or `\`. */
export const stringId = { type: 'string', minLength: 1, maxLength: 256, pattern: '^[^\\s/?#%\\\\]+$' } as const;
export const stringIdRule = 'a non-empty text of at most 256 characters without whitespace, /, ?, #, % or \\';
const stringIdText = new RegExp(stringId.pattern);

/** The store key of an integer id from a path (`007` → `7`), or undefined when it is not one. */
export function integerIdKey(raw: string): string | undefined {
  return /^\d{1,16}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? String(Number(raw)) : undefined;
}

export function isStringId(raw: string): boolean {
  return raw.length <= stringId.maxLength && stringIdText.test(raw);
}
