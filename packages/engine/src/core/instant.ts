import { domainError } from './errors.ts';

/**
 * A time as the API takes it: an ISO 8601 date-time (`2026-11-23T06:00:00Z`, any offset) or
 * milliseconds since the epoch (a number, or a text of digits); NaN for anything else.
 */
export function instantMs(raw: string | number): number {
  if (typeof raw === 'number') return raw;
  return /^\d+$/.test(raw) ? Number(raw) : /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
}

/** The query parameter `name`'s time (instantMs), undefined when absent; else VALIDATION naming it. */
export function queryInstant(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = instantMs(raw);
  if (!Number.isFinite(ms))
    throw domainError(
      'VALIDATION',
      `query.${name} must be an ISO 8601 date-time (2026-11-23T06:00:00Z) or milliseconds since the epoch; got '${raw}'`,
    );
  return ms;
}
