import { LineCounter, parseAllDocuments } from 'yaml';
import type { BaseRule } from './baseRule.ts';
import { baseQuery } from './baseRule.ts';
import { checkPdl } from './checkPdl.ts';
import { convertCondition } from './condition.ts';
import { convertCorrelation } from './correlation.ts';
import type { DetectionContext } from './detection.ts';
import { convertSelection } from './detection.ts';
import type { ConvertedDocument, DocumentResult, FailedDocument, FilterDocument } from './documents.ts';
import { weirRuleId } from './documents.ts';
import { childPath, fail, SigmaConversionError } from './errors.ts';
import type { Mapping } from './mapping.ts';
import { findLogsource } from './mapping.ts';
import { annotations, describe, readMetadata } from './metadata.ts';
import { severityFromLevel } from './severity.ts';
import { group } from './pdlText.ts';

export interface ConvertOptions {
  readonly mapping: Mapping;
  /** The license of rules that name none (SigmaHQ's rules are under DRL 1.1 without saying so). */
  readonly license?: string | null;
}

function logsourceOf(doc: Record<string, unknown>, path: string): Record<string, string> {
  const raw = doc.logsource;
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return fail(path, 'logsource must be a map');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The detection context of a log source: its condition and field overrides, or the reason it has none. */
function resolveLogsource(
  mapping: Mapping,
  logsource: Record<string, string>,
  warnings: string[],
): { condition: string | null; ctx: DetectionContext } {
  const entry = findLogsource(mapping, logsource);
  if (entry === undefined) {
    const described = ['product', 'category', 'service']
      .filter((k) => logsource[k] !== undefined)
      .map((k) => `${k}: ${logsource[k] as string}`)
      .join(', ');
    const what = described === '' ? 'an empty logsource' : described;
    if (mapping.unmappedLogsource === 'error')
      fail('logsource', `the mapping '${mapping.name}' has no log source for ${what}`);
    warnings.push(
      `the mapping '${mapping.name}' has no log source for ${what}: the rule has no log-source condition and may match events of other sources`,
    );
    return { condition: null, ctx: { mapping, fields: {} } };
  }
  return { condition: entry.condition, ctx: { mapping, fields: entry.fields } };
}

/** A detection section (search identifiers and condition) as one PDL query. */
export function convertDetection(
  detection: unknown,
  path: string,
  ctx: DetectionContext,
  conditionKey = 'condition',
): string {
  if (detection === null || typeof detection !== 'object' || Array.isArray(detection))
    return fail(path, 'must be a map of search identifiers and a condition');
  const d = detection as Record<string, unknown>;
  const selections = new Map<string, string>();
  for (const [name, value] of Object.entries(d)) {
    if (
      name === conditionKey ||
      name === 'timeframe' ||
      (conditionKey === 'condition' && name === 'rules' && path === 'filter')
    )
      continue;
    selections.set(name, convertSelection(value, childPath(path, name), ctx));
  }
  if (d.timeframe !== undefined)
    fail(
      childPath(path, 'timeframe'),
      "'timeframe' belongs to the deprecated aggregation conditions; write a correlation rule instead",
    );
  const condition = d[conditionKey];
  const conditionPath = childPath(path, conditionKey);
  if (condition === undefined) return fail(conditionPath, 'the condition is missing');
  const conditions = Array.isArray(condition) ? condition : [condition];
  if (conditions.length === 0 || conditions.some((c) => typeof c !== 'string'))
    return fail(conditionPath, 'the condition must be a string or a list of strings');
  const queries = conditions.map((c, i) =>
    convertCondition(c as string, selections, Array.isArray(condition) ? childPath(conditionPath, i) : conditionPath),
  );
  return queries.length === 1 ? (queries[0] as string) : queries.map(group).join(' OR ');
}

const failure = (index: number, doc: Record<string, unknown> | null, error: SigmaConversionError): FailedDocument => ({
  status: 'error',
  document: index,
  sigma: { id: typeof doc?.id === 'string' ? doc.id : null, title: typeof doc?.title === 'string' ? doc.title : null },
  path: error.path,
  reason: error.message,
});

/**
 * Converts a YAML text (one or several documents: rules, correlation rules, filters) to Weir
 * rules. Every document gets a result in order; one that cannot be converted gets the reason and
 * its YAML path, and nothing is converted with a changed meaning.
 */
export function convertSigma(text: string, options: ConvertOptions): DocumentResult[] {
  const mapping = options.mapping;
  const license = options.license ?? null;
  // prettyErrors off: the library words every error with its source line, and on a long line with
  // many errors that took 35 s (the fuzz suite); only the first error's place is worded, below.
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: false, lineCounter: lines });
  const results: (DocumentResult | undefined)[] = [];
  const bases: BaseRule[] = [];
  const filters: { index: number; doc: Record<string, unknown> }[] = [];
  const correlations: { index: number; doc: Record<string, unknown> }[] = [];

  (Array.isArray(docs) ? docs : [docs]).forEach((yamlDoc, index) => {
    if (yamlDoc.errors.length > 0) {
      const e = yamlDoc.errors[0];
      const at = e === undefined || e.pos[0] === -1 ? undefined : lines.linePos(e.pos[0]);
      const where = at === undefined ? '' : ` (line ${at.line}, column ${at.col})`;
      const message = `${(e?.message ?? '').split('\n')[0] as string}${at === undefined ? '' : ` at line ${at.line}, column ${at.col}`}`;
      results[index] = failure(index, null, new SigmaConversionError('', `not valid YAML${where}: ${message}`));
      return;
    }
    let value: unknown;
    try {
      value = yamlDoc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      // the yaml library refuses alias expansion beyond maxAliasCount (a "billion laughs" document) with a ReferenceError
      results[index] = failure(
        index,
        null,
        new SigmaConversionError('', `not a usable YAML document: ${(error as Error).message}`),
      );
      return;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      results[index] = failure(index, null, new SigmaConversionError('', 'a Sigma document must be a YAML map'));
      return;
    }
    const doc = value as Record<string, unknown>;
    try {
      if (doc.action !== undefined)
        fail(
          'action',
          `'action: ${String(doc.action)}' is a Sigma v1 collection; write each rule as a document of its own`,
        );
      if (typeof doc.title !== 'string' || doc.title.trim() === '') fail('title', 'the title is missing');
      if (doc.correlation !== undefined) correlations.push({ index, doc });
      else if (doc.filter !== undefined) filters.push({ index, doc });
      else if (doc.detection !== undefined) bases.push(convertBase(index, doc, mapping, license));
      else fail('', 'neither a rule (detection), a correlation rule (correlation) nor a filter (filter)');
    } catch (error) {
      if (!(error instanceof SigmaConversionError)) throw error;
      results[index] = failure(index, doc, error);
    }
  });

  const byRef = new Map<string, BaseRule>();
  for (const b of bases) {
    if (b.meta.id !== null) byRef.set(b.meta.id, b);
    if (b.meta.name !== null) byRef.set(b.meta.name, b);
  }

  for (const { index, doc } of filters) {
    try {
      results[index] = applyFilter(index, doc, byRef, mapping, license);
    } catch (error) {
      if (!(error instanceof SigmaConversionError)) throw error;
      results[index] = failure(index, doc, error);
    }
  }

  const correlationRefs = new Map<string, { id: string; index: number }>();
  for (const { index, doc } of correlations) {
    const meta = readMetadata(doc, license);
    const id = weirRuleId(meta.id, meta.name, meta.title);
    if (meta.id !== null) correlationRefs.set(meta.id, { id, index });
    if (meta.name !== null) correlationRefs.set(meta.name, { id, index });
  }
  const referencedCorrelations = new Set<number>();
  const convertedCorrelations: { index: number; result: ConvertedDocument }[] = [];
  for (const { index, doc } of correlations) {
    try {
      const result = convertCorrelation(index, doc, { mapping, license, bases: byRef, correlations: correlationRefs });
      for (const ref of result.referencedCorrelations) referencedCorrelations.add(ref);
      convertedCorrelations.push({ index, result: result.document });
    } catch (error) {
      if (!(error instanceof SigmaConversionError)) throw error;
      results[index] = failure(index, doc, error);
    }
  }
  for (const { index, result } of convertedCorrelations) results[index] = result;
  void referencedCorrelations;

  for (const b of bases) {
    try {
      const pdl = baseQuery(b);
      checkPdl(pdl, 'detection');
      results[b.index] = {
        status: 'converted',
        kind: 'rule',
        document: b.index,
        sigma: b.meta,
        rule: {
          id: b.weirId,
          name: b.meta.title,
          description: describe(b.meta),
          pdl,
          annotations: annotations(b.meta),
          ...severityFromLevel(b.meta.level, b.warnings),
          enabled: true,
        },
        store: b.usedBy.length === 0 || b.generate,
        usedBy: b.usedBy,
        filters: b.filters.map((f) => f.id),
        warnings: b.warnings,
      };
    } catch (error) {
      if (!(error instanceof SigmaConversionError)) throw error;
      results[b.index] = failure(b.index, b.doc, error);
    }
  }
  return results.map((r, i) => r ?? failure(i, null, new SigmaConversionError('', 'the document was not converted')));
}

function convertBase(index: number, doc: Record<string, unknown>, mapping: Mapping, license: string | null): BaseRule {
  const meta = readMetadata(doc, license);
  const warnings: string[] = [];
  if (typeof doc.taxonomy === 'string' && doc.taxonomy !== 'sigma') {
    warnings.push(
      `taxonomy '${doc.taxonomy}': field names are mapped by the mapping '${mapping.name}' as they are written`,
    );
  }
  const logsource = logsourceOf(doc, 'logsource');
  const { condition, ctx } = resolveLogsource(mapping, logsource, warnings);
  const detection = convertDetection(doc.detection, 'detection', ctx);
  return {
    index,
    doc,
    meta,
    weirId: weirRuleId(meta.id, meta.name, meta.title),
    logsource,
    logsourceCondition: condition,
    ctx,
    detection,
    filters: [],
    warnings,
    usedBy: [],
    generate: false,
  };
}

function applyFilter(
  index: number,
  doc: Record<string, unknown>,
  byRef: ReadonlyMap<string, BaseRule>,
  mapping: Mapping,
  license: string | null,
): FilterDocument {
  const meta = readMetadata(doc, license);
  const filter = doc.filter;
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter))
    return fail('filter', 'must be a map with rules, selections and a condition');
  const f = filter as Record<string, unknown>;
  const refs = Array.isArray(f.rules) ? f.rules : f.rules === undefined ? [] : [f.rules];
  if (refs.length === 0) fail('filter.rules', 'the filter names no rule');
  const logsource = logsourceOf(doc, 'logsource');
  const warnings: string[] = [];
  const { ctx } = resolveLogsource(mapping, logsource, warnings);
  const query = convertDetection(f, 'filter', ctx);
  const targets: BaseRule[] = refs.map((ref, i) => {
    const rule = typeof ref === 'string' ? byRef.get(ref) : undefined;
    if (rule === undefined) {
      return fail(
        childPath('filter.rules', i),
        `the rule '${String(ref)}' is not among the rules of this import; import a filter together with the rules it applies to`,
      );
    }
    for (const key of ['product', 'category', 'service']) {
      if ((logsource[key] ?? '').toLowerCase() !== (rule.logsource[key] ?? '').toLowerCase()) {
        fail(
          'logsource',
          `the filter's logsource differs from that of the rule '${String(ref)}' in ${key} ('${logsource[key] ?? ''}' vs '${rule.logsource[key] ?? ''}')`,
        );
      }
    }
    return rule;
  });
  const id = weirRuleId(meta.id, meta.name, meta.title);
  for (const rule of targets) rule.filters.push({ id, query });
  return { status: 'filter', document: index, sigma: meta, appliedTo: targets.map((t) => t.weirId), warnings };
}
