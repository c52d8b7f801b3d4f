import type { BaseRule } from './baseRule.ts';
import { baseQuery } from './baseRule.ts';
import { checkPdl } from './checkPdl.ts';
import type { ConvertedDocument } from './documents.ts';
import { weirRuleId } from './documents.ts';
import { fieldPath } from './detection.ts';
import { childPath, fail } from './errors.ts';
import type { Mapping } from './mapping.ts';
import { annotations, describe, readMetadata } from './metadata.ts';
import { severityFromLevel } from './severity.ts';
import { group, or, pdlField, pdlString } from './pdlText.ts';

export interface CorrelationContext {
  readonly mapping: Mapping;
  readonly license: string | null;
  /** Base rules of the import by Sigma id and name. */
  readonly bases: ReadonlyMap<string, BaseRule>;
  /** Correlation rules of the import by Sigma id and name: their Weir id and document. */
  readonly correlations: ReadonlyMap<string, { id: string; index: number }>;
}

const TYPES = new Set([
  'event_count',
  'value_count',
  'value_sum',
  'value_avg',
  'value_percentile',
  'temporal',
  'temporal_ordered',
]);
const OPS: Readonly<Record<string, string>> = { gt: '>', gte: '>=', lt: '<', lte: '<=', eq: '=', neq: '!=' };

/** One referenced rule: the query that selects its events (inlined) or its alerts (`_rule.id`). */
interface Ref {
  readonly ref: string;
  readonly label: string;
  readonly query: string;
  readonly base: BaseRule | undefined;
}

/**
 * A correlation rule as a PDL correlation (docs/sigma.md, "Correlation rules"). Rules of the same
 * import are inlined (their queries select the events, so the correlation runs over the same
 * events as they do); correlation rules, and rules outside the import named by id, are selected
 * by their alerts' `_rule.id`.
 */
export function convertCorrelation(
  index: number,
  doc: Record<string, unknown>,
  cx: CorrelationContext,
): { document: ConvertedDocument; referencedCorrelations: number[] } {
  const meta = readMetadata(doc, cx.license);
  const c = doc.correlation;
  if (c === null || typeof c !== 'object' || Array.isArray(c)) return fail('correlation', 'must be a map');
  const corr = c as Record<string, unknown>;
  const type = corr.type;
  if (typeof type !== 'string' || !TYPES.has(type))
    return fail('correlation.type', `must be one of ${[...TYPES].join(', ')}; found ${JSON.stringify(type)}`);
  const warnings: string[] = [];
  const referencedCorrelations: number[] = [];

  const rawRules = Array.isArray(corr.rules) ? corr.rules : corr.rules === undefined ? [] : [corr.rules];
  if (rawRules.length === 0) fail('correlation.rules', 'the correlation names no rule');
  const labels = new Set<string>();
  const refs: Ref[] = rawRules.map((r, i) => {
    const path = childPath('correlation.rules', i);
    if (typeof r !== 'string' || r === '') return fail(path, 'a rule reference is a rule id or name');
    let label = r.replace(/[^A-Za-z0-9_]/g, '_');
    if (!/^[A-Za-z_]/.test(label)) label = `r_${label}`;
    while (labels.has(label)) label += '_';
    labels.add(label);
    const base = cx.bases.get(r);
    if (base !== undefined) return { ref: r, label, query: baseQuery(base), base };
    const other = cx.correlations.get(r);
    if (other !== undefined) {
      referencedCorrelations.push(other.index);
      return { ref: r, label, query: `_rule.id = ${pdlString([other.id], false)}`, base: undefined };
    }
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(r)) {
      warnings.push(
        `the rule ${r} is not in this import: the correlation counts its alerts (_rule.id = "${weirRuleId(r, null, '')}"), so run it where those alerts arrive`,
      );
      return { ref: r, label, query: `_rule.id = ${pdlString([weirRuleId(r, null, '')], false)}`, base: undefined };
    }
    return fail(path, `the rule '${r}' is neither in this import nor a rule id`);
  });
  const generate = corr.generate === true;
  const weirId = weirRuleId(meta.id, meta.name, meta.title);
  for (const ref of refs) {
    if (ref.base !== undefined) {
      ref.base.usedBy.push(weirId);
      if (generate) ref.base.generate = true;
    }
  }

  // aliases: a field per referenced rule, computed before the correlation groups on it
  const aliasNames = new Set<string>();
  const stages: string[] = [];
  if (corr.aliases !== undefined && corr.aliases !== null) {
    if (typeof corr.aliases !== 'object' || Array.isArray(corr.aliases))
      fail('correlation.aliases', 'must be a map of alias names to maps of rule names to fields');
    const assignments: string[] = [];
    for (const [alias, perRule] of Object.entries(corr.aliases as Record<string, unknown>)) {
      const path = childPath('correlation.aliases', alias);
      if (perRule === null || typeof perRule !== 'object' || Array.isArray(perRule))
        fail(path, 'must map rule names to field names');
      let expr = 'null';
      const entries = Object.entries(perRule as Record<string, unknown>).reverse();
      for (const [ruleRef, field] of entries) {
        const ref = refs.find((r) => r.ref === ruleRef || r.base?.meta.name === ruleRef || r.base?.meta.id === ruleRef);
        if (ref === undefined) fail(childPath(path, ruleRef), `'${ruleRef}' is not one of the correlation's rules`);
        if (typeof field !== 'string' || field === '') fail(childPath(path, ruleRef), 'must be a field name');
        const source = pdlField(
          ref?.base === undefined
            ? fieldPath({ mapping: cx.mapping, fields: {} }, field as string)
            : fieldPath(ref.base.ctx, field as string),
        );
        expr = `if(${(ref as Ref).query}, ${source}, ${expr})`;
      }
      aliasNames.add(alias);
      assignments.push(`${pdlField(alias)} = ${expr}`);
    }
    stages.push(`eval ${assignments.join(', ')}`);
  }

  const groupBy = (
    Array.isArray(corr['group-by']) ? corr['group-by'] : corr['group-by'] === undefined ? [] : [corr['group-by']]
  ).map((g, i) => {
    if (typeof g !== 'string' || g === '') return fail(childPath('correlation.group-by', i), 'must be a field name');
    if (aliasNames.has(g)) return pdlField(g);
    const first = refs.find((r) => r.base !== undefined)?.base;
    return pdlField(fieldPath(first?.ctx ?? { mapping: cx.mapping, fields: {} }, g));
  });

  const timespan = corr.timespan;
  if (typeof timespan !== 'string' || !/^\d+[smhdw]$/.test(timespan)) {
    return fail(
      'correlation.timespan',
      `must be a number and a unit (s, m, h, d), such as 5m; found ${JSON.stringify(timespan)}`,
    );
  }

  const condition = corr.condition;
  const whereParts: string[] = [];
  let field: string | null = null;
  let growing = true;
  if (condition !== undefined && condition !== null) {
    if (typeof condition !== 'object' || Array.isArray(condition))
      fail('correlation.condition', 'must be a map such as {gte: 100}');
    for (const [op, value] of Object.entries(condition as Record<string, unknown>)) {
      const path = childPath('correlation.condition', op);
      if (op === 'field') {
        if (Array.isArray(value) && type === 'value_count' && value.every((v) => typeof v === 'string')) {
          field = value
            .map((v) => pdlField(fieldPath(refs[0]?.base?.ctx ?? { mapping: cx.mapping, fields: {} }, v as string)))
            .join(', ');
          continue;
        }
        if (typeof value !== 'string' || value === '') fail(path, 'must be a field name');
        field = aliasNames.has(value as string)
          ? pdlField(value as string)
          : pdlField(fieldPath(refs[0]?.base?.ctx ?? { mapping: cx.mapping, fields: {} }, value as string));
        continue;
      }
      const sign = OPS[op];
      if (sign === undefined) fail(path, `unknown condition operator '${op}'; expected gt, gte, lt, lte, eq or neq`);
      if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, `'${op}' takes a number`);
      if (op !== 'gt' && op !== 'gte') growing = false;
      whereParts.push(
        `${type.startsWith('temporal') ? '_temporal.matched' : '_aggregation.value'} ${sign} ${String(value)}`,
      );
    }
  }
  const needsField = ['value_count', 'value_sum', 'value_avg', 'value_percentile'].includes(type);
  if (needsField && field === null)
    fail('correlation.condition.field', `${type} needs the field it aggregates (condition.field)`);
  if (!needsField && field !== null) fail('correlation.condition.field', `${type} takes no field`);
  if (!type.startsWith('temporal') && whereParts.length === 0)
    fail('correlation.condition', `${type} needs a condition such as {gte: 10}`);

  const options = [`timespan=${timespan}`];
  if (groupBy.length > 0) options.push(`group_by ${groupBy.join(', ')}`);
  // conditions that only grow true as events arrive are checked at each event; others once, when the window closes
  const emitClose = type === 'value_avg' || (!growing && type !== 'value_percentile');
  if (emitClose) options.push('emit=close');
  const where = whereParts.length === 0 ? '' : ` where ${whereParts.join(' AND ')}`;

  if (type === 'temporal' || type === 'temporal_ordered') {
    const queries = refs.map((r) => `${r.query} AS ${r.label}`).join(' || ');
    stages.push(
      `temporal${type === 'temporal_ordered' ? '(ordered=true)' : ''} [ ${queries} ] ${options.join(' ')}${where}`,
    );
    if (stages.length > 1) stages.unshift(or(refs.map((r) => group(r.query))));
  } else {
    stages.unshift(or(refs.map((r) => group(r.query))));
    const head = type === 'event_count' ? 'event_count' : `${type}(${field as string})`;
    stages.push(`${head} ${options.join(' ')}${where}`);
  }
  const pdl = stages.join(' | ');
  checkPdl(pdl, 'correlation');
  return {
    document: {
      status: 'converted',
      kind: 'correlation',
      document: index,
      sigma: meta,
      rule: {
        id: weirId,
        name: meta.title,
        description: describe(meta),
        pdl,
        annotations: annotations(meta),
        ...severityFromLevel(meta.level, warnings),
        enabled: true,
      },
      store: true,
      usedBy: [],
      filters: [],
      warnings,
    },
    referencedCorrelations,
  };
}
