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
