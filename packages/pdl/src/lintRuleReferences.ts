import type { LintDiagnostic, LintRange } from './lintDiagnostic.ts';
import { closest } from './lintDiagnostic.ts';

/**
 * RULE_UNKNOWN: the rule ids an APPLY_RULES task lists (its `definition.rules`) that do not exist,
 * with a fix naming the existing rule when one id is close (a typo). The engine runs such a task
 * and skips the missing rule (GET /api/diagnostics/references lists it too); lint says so before.
 * `locate` gives the text range of the i-th id when the task comes from a file; without it the
 * diagnostic has line 0 and `path`.
 */
export function lintRuleReferences(
  rules: readonly unknown[],
  knownRuleIds: Iterable<string>,
  locate?: (index: number) => LintRange | undefined,
): LintDiagnostic[] {
  const known = new Set(knownRuleIds);
  const out: LintDiagnostic[] = [];
  rules.forEach((id, i) => {
    if (typeof id !== 'string' || known.has(id)) return;
    const near = closest(id, known);
    const range = locate?.(i);
    const where = range ?? { line: 0, column: 0 };
    // a fix needs a place to edit: in a file, the id's text (quoted as it was written is the caller's choice)
    const fix =
      near === undefined || range === undefined
        ? undefined
        : { title: `Use rule \`${near}\``, edits: [{ range, text: near }] };
    out.push({
      code: 'RULE_UNKNOWN',
      severity: 'warning',
      message: `rule \`${id}\` does not exist: the task skips it and it never fires${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`,
      ...where,
      path: `definition.rules[${i}]`,
      ...(fix === undefined ? {} : { fix }),
    });
  });
  return out;
}
