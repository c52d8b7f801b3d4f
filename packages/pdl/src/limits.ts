/** Guards against huge or hostile PDL texts and unbounded correlation state (pdl.md, "Correlation stages"). */
export interface PdlLimits {
  /** Maximum PDL text length in characters. */
  readonly maxTextLength: number;
  /** Maximum nesting of parentheses, NOT, if() and function calls. */
  readonly maxDepth: number;
  /** Maximum number of tokens. */
  readonly maxTokens: number;
  /** Maximum groups kept per correlation stage; the least recently used group is evicted. */
  readonly maxGroups: number;
  /** Maximum events (or values) kept per group of a correlation stage. */
  readonly maxEventsPerGroup: number;
  /** How far behind `advanceTime(now)` an emit=close window may still receive events. */
  readonly allowedLatenessMs: number;
}

export const defaultLimits: PdlLimits = {
  maxTextLength: 64 * 1024,
  maxDepth: 64,
  maxTokens: 10_000,
  maxGroups: 10_000,
  maxEventsPerGroup: 1_000,
  allowedLatenessMs: 0,
};

export function resolveLimits(limits: Partial<PdlLimits> | undefined): PdlLimits {
  return limits === undefined ? defaultLimits : { ...defaultLimits, ...limits };
}
