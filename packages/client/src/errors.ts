import type { ErrorBody } from './types.ts';

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
}

/** The refresh token was refused (403 or 401): the user must log in again. */
export class SessionExpiredError extends Error {
  constructor(status: number) {
    super(`the session has expired (refresh answered ${status}): log in again`);
    this.name = 'SessionExpiredError';
  }
}
