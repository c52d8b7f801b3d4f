import type { ErrorBody, ErrorDetail } from '@weir/contract';

/** A non-2xx answer of the API: its status and, when it sent one, the error object. */
export class WeirApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | undefined;
  readonly method: string;
  readonly path: string;

  constructor(method: string, path: string, status: number, body: ErrorBody | undefined) {
    super(body?.debugMessage ? `${body.message}: ${body.debugMessage}` : `${method} ${path} answered ${status}`);
    this.name = 'WeirApiError';
    this.status = status;
    this.body = body;
    this.method = method;
    this.path = path;
  }

  /**
   * The server's violations, one line each, starting with the field's path
   * (`definition.field: is required`); a refused element of a bulk request is named by its index
   * and id (`[2] (id 3) definition.field: is required`). Empty when the answer lists none.
   */
  get fieldErrors(): string[] {
    return (this.body?.errors ?? []).flatMap(detailLines);
  }
}

function detailLines(detail: ErrorDetail): string[] {
  if (typeof detail === 'string') return [detail];
  const element =
    detail.index < 0 ? '' : `[${detail.index}]${detail.id === undefined ? '' : ` (id ${JSON.stringify(detail.id)})`} `;
  return detail.errors.map((e) => `${element}${e}`);
}

/**
 * The error object of an answer, or undefined when there is none: the API's (`status`, `message`,
 * `debugMessage`, and `errors` when the content was refused) or a refused refresh's `{error_message}`.
 */
export function readErrorBody(status: number, parsed: unknown): ErrorBody | undefined {
  if (!parsed || typeof parsed !== 'object') return undefined;
  if ('message' in parsed) return parsed as ErrorBody;
  if ('error_message' in parsed)
    return { status: String(status), message: String(parsed.error_message), debugMessage: '' };
  return undefined;
}

/** The refresh token was refused (403 or 401): the user must log in again. */
export class SessionExpiredError extends Error {
  constructor(status: number) {
    super(`the session has expired (refresh answered ${status}): log in again`);
    this.name = 'SessionExpiredError';
  }
}
