import { WeirApiError } from '@weir/client';

/** What to show for a failed call: the API's debugMessage when it sent one (it names the field). */
export function errorText(err: unknown): string {
  if (err instanceof WeirApiError) {
    if (err.status === 401) return 'Wrong username or password.';
    if (err.status === 403) return 'Your role does not allow this.';
    return err.body?.debugMessage || err.body?.message || err.message;
  }
  return (err as Error).message ?? String(err);
}

/**
 * The API's per-field violations of a refused record (`errors: ["definition.field: is required", …]`)
 * by field path, so that a form shows each next to its field; empty for other failures.
 */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof WeirApiError)) return {};
  const out: Record<string, string> = {};
  for (const e of err.body?.errors ?? []) {
    if (typeof e !== 'string') continue;
    const i = e.indexOf(': ');
    if (i > 0) out[e.slice(0, i)] = (out[e.slice(0, i)] ? `${out[e.slice(0, i)]}; ` : '') + e.slice(i + 2);
  }
  return out;
}
