import {
  errorCatalog,
  errorStatus,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
  type ErrorHttpStatus,
} from '@weir/contract';

const kWeirError = Symbol.for('weir.error');

/** The codes of the engine's internal errors (not API answers); closed: a new kind of error adds its code here. */
export const internalErrorCodes = [
  'SETTINGS_INVALID',
  'SERDE_MISMATCH',
  'LOOKUP_FORMAT',
  'TASK_DEFINITION',
  'DEFINITION_VIOLATION',
] as const;
export type InternalErrorCode = (typeof internalErrorCodes)[number];

/**
 * The base of every error class of the engine: a code from a closed list (the internal codes above
 * or the API catalog's) and a brand, so `isWeirError` recognises them across realms and copies.
 */
export abstract class WeirError extends Error {
  readonly [kWeirError] = true;
  abstract readonly code: InternalErrorCode | ErrorCode;
}

export function isWeirError(value: unknown): value is WeirError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[kWeirError] === true;
}

// The API errors' catalog is part of the API's contract (@weir/contract: errors.ts); the errors
// thrown with it are the engine's.
const kErrorBrand = Symbol.for('weir.api-error');

type ArgsOf<C extends ErrorCode> = Parameters<(typeof errorCatalog)[C][1]>;

export class ApiError extends WeirError {
  readonly [kErrorBrand] = true;
  readonly code: ErrorCode;
  readonly httpStatus: ErrorHttpStatus;
  readonly body: ErrorBody;
  constructor(code: ErrorCode, httpStatus: ErrorHttpStatus, body: ErrorBody) {
    super(body.debugMessage);
    this.name = 'ApiError';
    this.code = code;
    this.httpStatus = httpStatus;
    this.body = body;
  }
}

export function apiError<C extends ErrorCode>(code: C, ...args: ArgsOf<C>): ApiError {
  const [httpStatus, template] = errorCatalog[code] as readonly [ErrorHttpStatus, (...a: ArgsOf<C>) => string];
  const { status, message } = errorStatus[httpStatus];
  return new ApiError(code, httpStatus, { status, message, debugMessage: template(...args) });
}

/** The same error with a list of details (bulk elements, schema violations). */
export function withDetails<E extends ApiError | DomainError>(error: E, errors: readonly ErrorDetail[]): E {
  if (isDomainError(error)) return new DomainError(error.code, error.args as never, errors) as E;
  const api = error as ApiError;
  return new ApiError(api.code, api.httpStatus, { ...api.body, errors }) as E;
}

const kDomainBrand = Symbol.for('weir.domain-error');

/**
 * A refusal of the domain (a missing user, a lookup over its limit, an engine not stopped): its
 * code is one of the closed list of the API catalog's, with the catalog's arguments and any
 * details. Code outside the HTTP layer throws these; the HTTP layer alone turns them into answers
 * (http/error-map.ts), so the domain never builds an HTTP status or body.
 */
export class DomainError<C extends ErrorCode = ErrorCode> extends WeirError {
  readonly [kDomainBrand] = true;
  readonly code: C;
  readonly args: ArgsOf<C>;
  readonly details: readonly ErrorDetail[] | undefined;
  constructor(code: C, args: ArgsOf<C>, details?: readonly ErrorDetail[]) {
    const template = errorCatalog[code][1] as (...a: ArgsOf<C>) => string;
    super(template(...args));
    this.name = 'DomainError';
    this.code = code;
    this.args = args;
    this.details = details;
  }
}

export function domainError<C extends ErrorCode>(code: C, ...args: ArgsOf<C>): DomainError<C> {
  return new DomainError(code, args);
}

export function isDomainError(value: unknown): value is DomainError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[kDomainBrand] === true;
}

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[kErrorBrand] === true;
}
