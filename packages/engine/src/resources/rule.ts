import { configKinds } from '@weir/contract';
import type { ResourceKind, SubmittedRecord } from './resource-kind.ts';
import { validateRulePdl } from './rule-pdl.ts';
import { ruleIdText } from '../tasks/task-definitions.ts';

// The stored shape is the API's contract (@weir/contract: resources.ts).
export type { StoredRule } from '@weir/contract';

/**
 * The latest form: `enabled` defaults to true; `datamodel` (earlier form) is kept as given; an
 * integer id (the original's sample rules) is stored and answered as its decimal text: `1` → `"1"`.
 */
export function latestRule(record: SubmittedRecord): SubmittedRecord {
  return { ...record, id: ruleIdText(record.id), enabled: record.enabled ?? true };
}

export const ruleKind: ResourceKind = {
  ...configKinds.rules,
  latest: latestRule,
  check: (record, ctx) => validateRulePdl(String(record.pdl), ctx),
};
