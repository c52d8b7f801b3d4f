import { stringId, stringIdRule } from './ids.ts';
import { descriptionField, nameField, type ResourceKind, type SubmittedRecord } from './resource-kind.ts';
import { validateRulePdl } from './rule-pdl.ts';
import { ruleIdText } from '../tasks/task-definitions.ts';

/** A rule as stored (spec: Rule). */
export interface StoredRule {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly pdl: string;
  readonly annotations?: readonly string[];
  readonly enabled: boolean;
  readonly datamodel?: string;
}

export const ruleSchema = {
  type: 'object',
  properties: {
    id: stringId,
    name: nameField,
    description: descriptionField,
    pdl: { type: 'string', minLength: 1, maxLength: 1024 * 1024 },
    annotations: { type: 'array', items: { type: 'string', maxLength: 1024 }, maxItems: 1000 },
    enabled: { type: 'boolean' },
    /** Earlier form (spec: Versioning): accepted and kept. */
    datamodel: { type: 'string', maxLength: 1024 },
  },
  required: ['id', 'name', 'pdl', 'enabled'],
  additionalProperties: false,
} as const;

/**
 * The latest form: `enabled` defaults to true; `datamodel` (earlier form) is kept as given; an
 * integer id (the original's sample rules) is stored and answered as its decimal text: `1` → `"1"`.
 */
export function latestRule(record: SubmittedRecord): SubmittedRecord {
  return { ...record, id: ruleIdText(record.id), enabled: record.enabled ?? true };
}

export const ruleKind: ResourceKind = {
  path: 'rules',
  collection: 'rules',
  names: { one: 'rule', many: 'rules' },
  idType: 'string',
  idRule: stringIdRule,
  schema: ruleSchema,
  latest: latestRule,
  check: (record, ctx) => validateRulePdl(String(record.pdl), ctx),
};
