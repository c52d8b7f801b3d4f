import { lintResult, pdlLintBody, sigmaLintBody, taskLintBody } from '@weir/contract';
import type { LintDiagnostic } from '@weir/pdl';
import { lintPdl, lintRuleReferences } from '@weir/pdl';
import { lintSigma } from '@weir/sigma';
import { access } from '../auth/roles.ts';
import { apiError } from '../core/errors.ts';
import { handlerCheckedBody } from '../http/handler-checked-body.ts';
import { isYamlMediaType, registerYamlParser } from '../http/body-parsers.ts';
import type { StoredRule } from '../resources/rule.ts';
import type { RouteModule } from './route-module.ts';

const counted = (diagnostics: readonly LintDiagnostic[]) => ({
  errors: diagnostics.filter((d) => d.severity === 'error').length,
  warnings: diagnostics.filter((d) => d.severity === 'warning').length,
  infos: diagnostics.filter((d) => d.severity === 'info').length,
  diagnostics,
});

const lintRoute = (body: object) => ({
  config: { access: access.member },
  ...handlerCheckedBody,
  schema: { body, response: { 200: lintResult } },
});

/**
 * POST /api/lint/pdl, /api/lint/task and /api/lint/sigma (docs/api.md, "Lint"; the codes in
 * docs/detection-as-code.md): diagnostics, never a refusal for what they find. Members may lint.
 */
export const lintRoutes: RouteModule = async (app, ctx) => {
  app.post('/api/lint/pdl', lintRoute(pdlLintBody), async (request) => {
    const body = (request.body ?? {}) as { pdl?: unknown; events?: unknown };
    if (typeof body.pdl !== 'string') throw apiError('VALIDATION', 'pdl must be a string holding the PDL text.');
    if (body.events !== undefined && !Array.isArray(body.events))
      throw apiError('VALIDATION', 'events must be an array of sample events (JSON objects).');
    const lookups = ctx.store.list<{ id: string }>('lookups').map((l) => l.id);
    return counted(
      lintPdl(body.pdl, {
        lookups,
        ...(body.events === undefined ? {} : { sampleEvents: body.events, sampleSource: 'the given events' }),
      }),
    );
  });

  app.post('/api/lint/task', lintRoute(taskLintBody), async (request) => {
    const body = (request.body ?? {}) as { function?: unknown; definition?: { rules?: unknown } };
    if (typeof body.function !== 'string') throw apiError('VALIDATION', 'function must be the task function.');
    const rules = body.definition?.rules;
    if (body.function !== 'APPLY_RULES' || !Array.isArray(rules)) return counted([]);
    return counted(
      lintRuleReferences(
        rules,
        ctx.store.list<StoredRule>('rules').map((r) => r.id),
      ),
    );
  });

  // Scoped: the YAML body parser serves this route only.
  await app.register(async (scope) => {
    registerYamlParser(scope);
    scope.post('/api/lint/sigma', lintRoute(sigmaLintBody), async (request) => {
      const body = request.body as unknown;
      const yaml =
        isYamlMediaType(request.headers['content-type']) || typeof body === 'string'
          ? body
          : (body as { yaml?: unknown })?.yaml;
      if (typeof yaml !== 'string')
        throw apiError(
          'VALIDATION',
          'Send the Sigma YAML as the body (text/plain or application/yaml), or JSON {"yaml": "..."}.',
        );
      return counted(lintSigma(yaml));
    });
  });
};
