import { parse as parsePdl, isPdlSyntaxError } from '@weir/pdl';
import { parse as parseYaml } from 'yaml';

/**
 * A field and log-source mapping (docs/sigma.md, "Mapping files"): how Sigma's field names and
 * `logsource` become paths and conditions on the events one source produces.
 */
export interface Mapping {
  readonly name: string;
  readonly description: string;
  /** Sigma field name → event path (dots separate levels). */
  readonly fields: Readonly<Record<string, string>>;
  /** The path of a field the mapping does not list: `{field}` is replaced by the Sigma name. */
  readonly fieldTemplate: string;
  /** Fields a Sigma keyword (a field-less value) is searched in; empty: keywords cannot convert. */
  readonly keywordFields: readonly string[];
  readonly logsources: readonly LogsourceEntry[];
  /** What a rule whose logsource no entry matches gets: an error (default), or no condition and a warning. */
  readonly unmappedLogsource: 'error' | 'warn';
  /** Placeholder name (without %) → its values, for the `expand` modifier. */
  readonly placeholders: Readonly<Record<string, readonly string[]>>;
  /**
   * Field names that events write with spaces (Windows Defender's `Threat Name`): a Sigma field
   * that is one of them without the spaces (`ThreatName`) or with underscores (`Threat_Name`),
   * placed by fieldTemplate, matches either spelling (see spacedSpelling).
   */
  readonly spacedFields: readonly string[];
}

export interface LogsourceEntry {
  /** The logsource keys this entry stands for (product, category, service). */
  readonly match: Readonly<Record<string, string>>;
  /** A PDL query every event of this log source meets, or null for none. */
  readonly condition: string | null;
  /** Field paths that differ for this log source. */
  readonly fields: Readonly<Record<string, string>>;
}

export class MappingError extends Error {
  override readonly name = 'MappingError';
}

const LOGSOURCE_KEYS = new Set(['product', 'category', 'service']);

function stringRecord(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new MappingError(`${where} must be a map of names to strings`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string' || v === '') throw new MappingError(`${where}.${k} must be a non-empty string`);
    out[k] = v;
  }
  return out;
}

/** Reads a mapping file (YAML text); every problem is a MappingError naming where it is. */
export function parseMapping(text: string): Mapping {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw new MappingError(`the mapping is not valid YAML: ${(error as Error).message}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new MappingError('a mapping must be a YAML map');
  const d = doc as Record<string, unknown>;
  for (const key of Object.keys(d)) {
    if (
      ![
        'name',
        'description',
        'fields',
        'fieldTemplate',
        'keywordFields',
        'logsources',
        'unmappedLogsource',
        'placeholders',
        'spacedFields',
      ].includes(key)
    ) {
      throw new MappingError(`unknown key '${key}' in the mapping`);
    }
  }
  if (typeof d.name !== 'string' || d.name === '') throw new MappingError('name must be a non-empty string');
  const fieldTemplate = d.fieldTemplate ?? '{field}';
  if (typeof fieldTemplate !== 'string' || !fieldTemplate.includes('{field}'))
    throw new MappingError('fieldTemplate must be a string containing {field}');
  const keywordFields = d.keywordFields ?? [];
  if (!Array.isArray(keywordFields) || keywordFields.some((f) => typeof f !== 'string' || f === '')) {
    throw new MappingError('keywordFields must be a list of field paths');
  }
  const unmapped = d.unmappedLogsource ?? 'error';
  if (unmapped !== 'error' && unmapped !== 'warn')
    throw new MappingError("unmappedLogsource must be 'error' or 'warn'");
  const placeholders: Record<string, string[]> = {};
  if (d.placeholders !== undefined && d.placeholders !== null) {
    if (typeof d.placeholders !== 'object' || Array.isArray(d.placeholders))
      throw new MappingError('placeholders must be a map of names to lists of values');
    for (const [k, v] of Object.entries(d.placeholders)) {
      const list = Array.isArray(v) ? v : [v];
      if (list.length === 0 || list.some((x) => typeof x !== 'string' && typeof x !== 'number')) {
        throw new MappingError(`placeholders.${k} must be a value or a non-empty list of values`);
      }
      placeholders[k] = list.map(String);
    }
  }
  const spacedFields = d.spacedFields ?? [];
  if (!Array.isArray(spacedFields)) throw new MappingError('spacedFields must be a list of field names with spaces');
  spacedFields.forEach((f: unknown, i: number) => {
    if (typeof f !== 'string' || !/\S \S/.test(f) || f !== f.trim())
      throw new MappingError(
        `spacedFields[${i}] must be a field name with a space between words (such as 'Threat Name'), found ${JSON.stringify(f)}`,
      );
  });
  const logsources: LogsourceEntry[] = [];
  const rawSources = d.logsources ?? [];
  if (!Array.isArray(rawSources)) throw new MappingError('logsources must be a list');
  rawSources.forEach((entry: unknown, i: number) => {
    const where = `logsources[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      throw new MappingError(`${where} must be a map`);
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      if (!['match', 'condition', 'fields'].includes(key)) throw new MappingError(`unknown key '${key}' in ${where}`);
    }
    const match = stringRecord(e.match, `${where}.match`);
    if (Object.keys(match).length === 0)
      throw new MappingError(`${where}.match must name at least one of product, category, service`);
    for (const key of Object.keys(match)) {
      if (!LOGSOURCE_KEYS.has(key))
        throw new MappingError(`${where}.match.${key}: only product, category and service can be matched`);
    }
    const condition = e.condition ?? null;
    if (condition !== null) {
      if (typeof condition !== 'string')
        throw new MappingError(`${where}.condition must be a PDL query (a string) or null`);
      try {
        const pipeline = parsePdl(condition);
        if (pipeline.stages.length !== 1 || pipeline.stages[0]?.kind !== 'QueryStage')
          throw new MappingError(`${where}.condition must be one PDL query, not a pipeline`);
      } catch (error) {
        if (isPdlSyntaxError(error)) throw new MappingError(`${where}.condition is not valid PDL: ${error.message}`);
        throw error;
      }
    }
    logsources.push({
      match,
      condition: condition as string | null,
      fields: stringRecord(e.fields, `${where}.fields`),
    });
  });
  return {
    name: d.name,
    description: typeof d.description === 'string' ? d.description : '',
    fields: stringRecord(d.fields, 'fields'),
    fieldTemplate,
    keywordFields: keywordFields as string[],
    logsources,
    unmappedLogsource: unmapped,
    placeholders,
    spacedFields: spacedFields as string[],
  };
}

const spellings = new WeakMap<Mapping, ReadonlyMap<string, string>>();

/**
 * The spelling with spaces of a Sigma field name, when the mapping lists one under spacedFields
 * whose spaces removed, or replaced by underscores, give the name (`ThreatName`, `Threat_Name` →
 * `Threat Name`); otherwise undefined.
 */
export function spacedSpelling(mapping: Mapping, field: string): string | undefined {
  let byName = spellings.get(mapping);
  if (byName === undefined) {
    const built = new Map<string, string>();
    for (const spaced of mapping.spacedFields) {
      built.set(spaced.replace(/ +/g, ''), spaced);
      built.set(spaced.replace(/ +/g, '_'), spaced);
    }
    spellings.set(mapping, built);
    byName = built;
  }
  return byName.get(field);
}

/**
 * The entry for a rule's logsource: the entry names exactly the keys the rule gives (product,
 * category, service), with the same values (case-insensitive); the first such entry, or undefined.
 */
export function findLogsource(
  mapping: Mapping,
  logsource: Readonly<Record<string, string>>,
): LogsourceEntry | undefined {
  const given = Object.entries(logsource).filter(([k]) => LOGSOURCE_KEYS.has(k));
  for (const entry of mapping.logsources) {
    const keys = Object.entries(entry.match);
    if (keys.length !== given.length) continue;
    if (keys.every(([k, v]) => logsource[k]?.toLowerCase() === v.toLowerCase())) return entry;
  }
  return undefined;
}
