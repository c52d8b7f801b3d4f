import type { WeirClient } from './client.ts';
import { changeNoteHeader, type SigmaImportResult } from '@weir/contract';
import type { SigmaImportRequest } from './types.ts';
import { readErrorBody, SessionExpiredError, WeirApiError } from './errors.ts';

export type { SigmaImportRequest };

/**
 * Endpoints the SDK's WeirClient does not have a method for yet (added for weirctl). They go through
 * the same base URL, fetch and tokens as the client, and refresh an expired token once as it does.
 */
export class ExtraEndpoints {
  readonly #client: WeirClient;
  readonly #base: string;
  readonly #fetch: typeof fetch;

  constructor(client: WeirClient, baseUrl: string, fetchFn: typeof fetch = globalThis.fetch.bind(globalThis)) {
    this.#client = client;
    this.#base = baseUrl.replace(/\/$/, '');
    this.#fetch = fetchFn;
  }

  /**
   * `POST /api/import/sigma`: converts Sigma YAML (several documents allowed) and, unless dry-run,
   * stores the rules; `note` is the change note of their versions (the server's default: `Sigma import`).
   */
  sigmaImport(request: SigmaImportRequest, note?: string): Promise<SigmaImportResult> {
    return this.#json(
      'POST',
      '/api/import/sigma',
      request,
      note === undefined ? {} : { [changeNoteHeader]: encodeURIComponent(note) },
    );
  }

  async #json<T>(method: string, path: string, body: unknown, extra: Record<string, string> = {}): Promise<T> {
    const send = () =>
      this.#fetch(`${this.#base}${path}`, {
        method,
        headers: {
          'content-type': 'application/json;charset=UTF-8',
          ...extra,
          ...(this.#client.tokens ? { authorization: `Bearer ${this.#client.tokens.access_token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    let res = await send();
    if ((res.status === 401 || res.status === 403) && this.#client.tokens?.refresh_token) {
      await this.#client.refresh();
      res = await send();
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      if (res.status === 401 && !this.#client.tokens) throw new SessionExpiredError(401);
      throw new WeirApiError(method, path, res.status, readErrorBody(res.status, parsed));
    }
    return parsed as T;
  }
}
