import type { ErrorObject } from 'ajv';
import { apiError, withDetails, type ApiError } from '../core/errors.ts';
import { describeRequestViolations, queryValueViolation } from '../validation/violations.ts';

/**
 * The one answer to a request part that fails its declared schema (`body`, `params`, `querystring`,
 * a multipart upload's parts), whichever path checked it: Fastify before the handler, or the route
 * that parsed the body first. A query value of the wrong type or range is answered with its one
 * message, which says what was found (`querystring.partition must be an integer >= 0, found 'x'`);
 * anything else lists every violation, in the message and in `errors`.
 */
export function violationError(errors: readonly ErrorObject[], part: string): ApiError {
  const first = errors[0];
  const value = part === 'querystring' && first !== undefined ? queryValueViolation(first, part) : undefined;
  if (value !== undefined) return apiError('VALIDATION', value);
  const details = describeRequestViolations(errors, part);
  return withDetails(apiError('VALIDATION', details.join('; ')), details);
}
