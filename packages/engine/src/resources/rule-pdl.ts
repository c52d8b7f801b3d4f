import { check } from '@weir/pdl';
import type { CheckContext } from './resource-kind.ts';

/**
 * The one hook where a rule's PDL is checked when the rule is saved (create, update, bulk): it
 * must compile, and every lookup it uses must exist. A violation names line and column:
 * `pdl: line 1, column 5: expected a value after '=', found end of input`.
 */
export function validateRulePdl(pdl: string, ctx: CheckContext): string[] {
  const outcome = check(pdl, { lookups: ctx.lookups });
  return outcome.result ? [] : [`pdl: ${outcome.error.message}`];
}
