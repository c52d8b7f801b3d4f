import { readdirSync, readFileSync } from 'node:fs';
import { builtInMappingsUrl, convertSigma, lintSigma, MappingError, parseMapping } from '@weir/sigma';
import type { DocumentResult, Mapping, SigmaLintDiagnostic, WeirRule } from '@weir/sigma';
import { access } from '../auth/roles.ts';
import { isYamlMediaType, parseJson, registerYamlParser } from '../http/body-parsers.ts';
import { apiError } from '../core/errors.ts';
import { ConfigResource } from '../resources/config-resource.ts';
import { resourceKinds } from '../resources/kinds.ts';
import type { RouteModule } from './route-module.ts';
import { sigmaImport, sigmaImportBody, sigmaImportQuery, sigmaMapping, sigmaMappings } from '@weir/contract';
import { handlerCheckedBody } from '../http/handler-checked-body.ts';
import { changeOf } from './record-versions.ts';

type Query = { Querystring: { mapping?: string; dryRun?: string; license?: string } };

/**
 * The body: the Sigma YAML as text/plain, application/yaml or application/x-yaml (options in the
 * query), or JSON; read and checked by readRequest (documented here).
 */
/** The mapping an import uses when it names none. */
const defaultMapping = 'evtx-json';

/** A built-in mapping: parsed, and its file as shipped (for GET /api/import/sigma/mappings/{name}). */
interface BuiltInMapping {
  readonly mapping: Mapping;
  readonly yaml: string;
}

/** The mappings shipped in packages/sigma/mappings, by name (read once). */
function loadBuiltInMappings(): Map<string, BuiltInMapping> {
  const out = new Map<string, BuiltInMapping>();
  for (const file of readdirSync(builtInMappingsUrl)
    .filter((f) => f.endsWith('.yml'))
    .sort()) {
    const yaml = readFileSync(new URL(file, builtInMappingsUrl), 'utf8');
    const mapping = parseMapping(yaml);
    out.set(mapping.name, { mapping, yaml });
  }
  return out;
}

const summary = (m: Mapping) => ({ name: m.name, description: m.description, default: m.name === defaultMapping });

/** Longest `license` of a request (a rule's annotation holds at most 1,024 characters). */
const maxLicenseLength = 1000;

interface ImportRequest {
  readonly yaml: string;
  readonly mapping: Mapping;
  readonly dryRun: boolean;
  readonly license: string | null;
}

function readRequest(
  body: unknown,
  query: Query['Querystring'],
  mappings: ReadonlyMap<string, Mapping>,
  yamlBody: boolean,
): ImportRequest {
  // text/plain or a YAML type: the YAML itself, options in the query; JSON: {yaml, mapping | mappingYaml, dryRun, license}.
  // A text/plain body that starts with '{' is JSON (clients that send JSON as text); a YAML body is always YAML.
  const value: unknown =
    !yamlBody && typeof body === 'string' && body.trimStart().startsWith('{') ? parseJson(body) : body;
  let options: Record<string, unknown>;
  let yaml: unknown;
  if (typeof value === 'string') {
    yaml = value;
    options = {
      mapping: query.mapping,
      dryRun: query.dryRun === undefined ? undefined : query.dryRun === 'true',
      license: query.license,
    };
    if (query.dryRun !== undefined && query.dryRun !== 'true' && query.dryRun !== 'false')
      throw apiError('VALIDATION', `dryRun must be true or false, found '${query.dryRun}'.`);
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    options = value as Record<string, unknown>;
    yaml = options.yaml;
    for (const key of Object.keys(options)) {
      if (!['yaml', 'mapping', 'mappingYaml', 'dryRun', 'license'].includes(key))
        throw apiError(
          'VALIDATION',
          `Unknown property '${key}'; expected yaml, mapping, mappingYaml, dryRun, license.`,
        );
    }
  } else {
    throw apiError(
      'VALIDATION',
      'Send the Sigma YAML as text/plain, or JSON {"yaml": "...", "mapping": "evtx-json", "dryRun": true}.',
    );
  }
  if (typeof yaml !== 'string' || yaml.trim() === '')
    throw apiError('VALIDATION', 'yaml must be a non-empty string holding one or more Sigma YAML documents.');
  if (options.dryRun !== undefined && typeof options.dryRun !== 'boolean')
    throw apiError('VALIDATION', 'dryRun must be true or false.');
  if (options.license !== undefined && options.license !== null && typeof options.license !== 'string')
    throw apiError('VALIDATION', 'license must be a string.');
  // Copied into every converted rule (description and annotations): unbounded, a 300 KB license over
  // 500 small documents made a dry run answer over 512 MB (the fuzz suite).
  if (typeof options.license === 'string' && options.license.length > maxLicenseLength)
    throw apiError(
      'VALIDATION',
      `license must be at most ${maxLicenseLength} characters (an SPDX identifier or a short text), found ${options.license.length}.`,
    );
  let mapping: Mapping;
  if (options.mappingYaml !== undefined) {
    if (options.mapping !== undefined)
      throw apiError(
        'VALIDATION',
        'Give either mapping (a built-in mapping name) or mappingYaml (a mapping file), not both.',
      );
    if (typeof options.mappingYaml !== 'string')
      throw apiError('VALIDATION', 'mappingYaml must be a string holding a mapping file.');
    try {
      mapping = parseMapping(options.mappingYaml);
    } catch (err) {
      if (err instanceof MappingError) throw apiError('VALIDATION', `mappingYaml: ${err.message}`);
      throw err;
    }
  } else {
    const name = options.mapping ?? defaultMapping;
    const builtIn = `built in: ${[...mappings.keys()].join(', ')} (or send your own as mappingYaml)`;
    // Not turned into text: an object's own toString may be anything (a 500, found by the fuzz suite).
    if (typeof name !== 'string') throw apiError('VALIDATION', `mapping must be the name of a mapping; ${builtIn}.`);
    const found = mappings.get(name);
    if (found === undefined) throw apiError('VALIDATION', `Unknown mapping '${name}'; ${builtIn}.`);
    mapping = found;
  }
  return { yaml, mapping, dryRun: options.dryRun === true, license: (options.license as string | undefined) ?? null };
}

/** Names are unique in Weir: a title that another rule already has gets the rule id appended. */
function uniqueNames(rules: WeirRule[], stored: readonly { id: unknown; name: unknown }[]): WeirRule[] {
  const owner = new Map<string, string>();
  for (const r of stored) if (typeof r.name === 'string') owner.set(r.name, String(r.id));
  const importing = new Set(rules.map((r) => r.id));
  for (const [name, id] of owner) if (importing.has(id)) owner.delete(name); // replaced by this import
  return rules.map((rule) => {
    const taken = owner.get(rule.name);
    const named = taken === undefined || taken === rule.id ? rule : { ...rule, name: `${rule.name} (${rule.id})` };
    owner.set(named.name, rule.id);
    return named;
  });
}

function answer(
  result: DocumentResult,
  stored: ReadonlyMap<string, WeirRule>,
  dryRun: boolean,
): Record<string, unknown> {
  if (result.status === 'error') {
    return {
      document: result.document,
      status: 'error',
      sigmaId: result.sigma.id,
      title: result.sigma.title,
      path: result.path,
      reason: result.reason,
    };
  }
  if (result.status === 'filter') {
    return {
      document: result.document,
      status: 'filter',
      sigmaId: result.sigma.id,
      title: result.sigma.title,
      appliedTo: result.appliedTo,
      warnings: result.warnings,
    };
  }
  const rule = stored.get(result.rule.id) ?? result.rule;
  return {
    document: result.document,
    status: 'converted',
    kind: result.kind,
    sigmaId: result.sigma.id,
    title: result.sigma.title,
    id: rule.id,
    stored: result.store && !dryRun,
    ...(result.store ? {} : { usedBy: result.usedBy }),
    rule,
    filters: result.filters,
    warnings: result.warnings,
  };
}

/**
 * POST /api/import/sigma (docs/api.md, "Sigma import"): converts Sigma rules, correlation rules and
 * filters and stores the converted rules as POST /api/bulk/rules would (all or none); per document,
 * the rule it became or why it could not be converted. Admin only, like every write. Also
 * GET /api/import/sigma/mappings[/{name}]: the built-in mappings (member).
 */
export const sigmaImportRoutes: RouteModule = async (app, ctx) => {
  const builtIn = loadBuiltInMappings();
  const mappings = new Map([...builtIn].map(([name, m]) => [name, m.mapping]));
  // The rule count limit of POST /api/bulk/rules holds here too (weir.rules.max-count → RECORD_LIMIT).
  const limit = { max: ctx.settings.get('weir.rules.max-count'), setting: 'weir.rules.max-count' };
  const rules = new ConfigResource(
    resourceKinds.find((k) => k.path === 'rules')!,
    ctx.store,
    limit,
  );
  // The built-in mappings, for the console's mapping choice and viewer: open to every user (shipped files, no data).
  app.get(
    '/api/import/sigma/mappings',
    { config: { access: access.member }, schema: { response: { 200: sigmaMappings } } },
    async () => [...mappings.values()].map(summary),
  );
  app.get<{ Params: { name: string } }>(
    '/api/import/sigma/mappings/:name',
    { config: { access: access.member }, schema: { response: { 200: sigmaMapping } } },
    async (request) => {
      const found = builtIn.get(request.params.name);
      if (found === undefined)
        throw apiError('SIGMA_MAPPING_MISSING', request.params.name, [...builtIn.keys()].join(', '));
      return { ...summary(found.mapping), yaml: found.yaml };
    },
  );
  // Scoped: the YAML body parser serves this route only (every other route answers 415 to YAML).
  await app.register(async (scope) => {
    registerYamlParser(scope);
    scope.post<Query>(
      '/api/import/sigma',
      {
        config: { access: access.admin },
        ...handlerCheckedBody,
        schema: { body: sigmaImportBody, querystring: sigmaImportQuery, response: { 200: sigmaImport } },
      },
      async (request) => {
        const yamlBody = isYamlMediaType(request.headers['content-type']);
        const req = readRequest(request.body, request.query, mappings, yamlBody);
        const results = convertSigma(req.yaml, { mapping: req.mapping, license: req.license });
        const toStore = results.flatMap((r) => (r.status === 'converted' && r.store ? [r.rule] : []));
        const named = uniqueNames(toStore, rules.list() as unknown as { id: unknown; name: unknown }[]);
        if (!req.dryRun && named.length > 0)
          await rules.bulk(named, { note: changeOf(request).note ?? 'Sigma import' });
        const byId = new Map(named.map((r) => [r.id, r]));
        // The lint diagnostics of each document (docs/detection-as-code.md, "Lint"): said, never a refusal.
        const lint = new Map<number, Omit<SigmaLintDiagnostic, 'document'>[]>();
        for (const { document, ...d } of lintSigma(req.yaml)) lint.set(document, [...(lint.get(document) ?? []), d]);
        return {
          dryRun: req.dryRun,
          mapping: req.mapping.name,
          converted: results.filter((r) => r.status === 'converted').length,
          failed: results.filter((r) => r.status === 'error').length,
          stored: req.dryRun ? 0 : named.length,
          results: results.map((r) => ({ ...answer(r, byId, req.dryRun), lint: lint.get(r.document) ?? [] })),
        };
      },
    );
  });
};
