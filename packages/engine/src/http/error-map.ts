import { apiError, isApiError, isDomainError, withDetails, type ApiError, type DomainError } from '../core/errors.ts';

/**
 * The one place a domain error becomes an API answer: its code's entry in the API catalog
 * (@weir/contract errors), with the same status, message and details.
 */
export function domainAnswer(error: DomainError): ApiError {
  const answer = (apiError as (code: string, ...args: readonly unknown[]) => ApiError)(error.code, ...error.args);
  return error.details === undefined ? answer : withDetails(answer, error.details);
}

/** The API answer an error already stands for (an API error, or a domain error mapped), else undefined. */
export function answerOf(error: unknown): ApiError | undefined {
  if (isApiError(error)) return error;
  if (isDomainError(error)) return domainAnswer(error);
  return undefined;
}
