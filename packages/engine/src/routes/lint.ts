import { lintResult, lintSample, pdlLintBody, sigmaLintBody, taskLintBody } from '@weir/contract';
import type { LintDiagnostic } from '@weir/pdl';
import { lintPdl, lintRuleReferences } from '@weir/pdl';
import { lintSigma } from '@weir/sigma';
import { access } from '../auth/roles.ts';
import { RangeReader } from '../backtests/range-reader.ts';
import { apiError, withDetails } from '../core/errors.ts';
import type { NodeContext } from '../http/node-context.ts';
import { handlerCheckedBody } from '../http/handler-checked-body.ts';
import { isYamlMediaType, registerYamlParser } from '../http/body-parsers.ts';
import { kafkaConnection } from '../kafka/client-options.ts';
import { unavailableOr } from '../kafka/broker-errors.ts';
import type { StoredRule } from '../resources/rule.ts';
import type { RouteModule } from './route-module.ts';

const counted = (diagnostics: readonly LintDiagnostic[]) => ({
  errors: diagnostics.filter((d) => d.severity === 'error').length,
  warnings: diagnostics.filter((d) => d.severity === 'warning').length,
  infos: diagnostics.filter((d) => d.severity === 'info').length,
  diagnostics,
});

/** How long reading a topic's sample may take; what was read by then is the sample. */
const sampleDeadlineMs = 10_000;
/** A sample is read again after this long: an editor linting at every pause reads the topic once in a while, not each time. */
const sampleKeptMs = 5_000;

/** The values of records that are JSON objects (UTF-8): the sample events of a topic. */
function sampleEvents(values: readonly (Buffer | null | undefined)[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const value of values) {
    if (value === null || value === undefined) continue;
    try {
      const event = JSON.parse(value.toString('utf8')) as unknown;
      if (event !== null && typeof event === 'object' && !Array.isArray(event))
        out.push(event as Record<string, unknown>);
    } catch {
      // not JSON: a rule reads JSON objects only, so it is no sample of what a rule sees
    }
  }
  return out;
}

/**
 * A topic's most recent records as sample events, read by the backtests' range reader (plain
 * ListOffsets and Fetch: outside any consumer group, nothing committed). One reader per node.
 */
function topicSampler(ctx: NodeContext) {
  let reader: RangeReader | undefined;
  const kept = new Map<string, { readonly at: number; readonly events: Record<string, unknown>[] }>();
  const readSample = async (topic: string, count: number) => {
    const appId = ctx.settings.get('weir.application.id');
    try {
      if ((await ctx.topics.details.partitions(topic)) === undefined)
        throw withDetails(apiError('TOPIC_MISSING'), [`topic: topic '${topic}' does not exist`]);
      reader ??= new RangeReader({
        ...kafkaConnection(ctx.settings, `${appId}-lint`),
        groupId: `${appId}-lint-never-joined`,
      });
      return sampleEvents(
        (await reader.recent(topic, count, AbortSignal.timeout(sampleDeadlineMs))).map((r) => r.value),
      );
    } catch (err) {
      throw unavailableOr(err, ctx.topics.bootstrap);
    }
  };
  return {
    read: async (topic: string, count: number) => {
      const key = `${count} ${topic}`;
      const now = Date.now();
      for (const [k, v] of kept) if (now - v.at > sampleKeptMs) kept.delete(k);
      const found = kept.get(key);
      if (found) return found.events;
      const events = await readSample(topic, count);
      kept.set(key, { at: now, events });
      return events;
    },
    close: () => reader?.close(),
  };
}

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
  const sampler = topicSampler(ctx);
  app.addHook('onClose', async () => {
    await sampler.close();
  });

  app.post('/api/lint/pdl', lintRoute(pdlLintBody), async (request) => {
    const body = (request.body ?? {}) as { pdl?: unknown; events?: unknown; topic?: unknown; sample?: unknown };
    if (typeof body.pdl !== 'string') throw apiError('VALIDATION', 'pdl must be a string holding the PDL text.');
    if (body.events !== undefined && !Array.isArray(body.events))
      throw apiError('VALIDATION', 'events must be an array of sample events (JSON objects).');
    if (body.topic !== undefined && (typeof body.topic !== 'string' || body.topic === ''))
      throw apiError('VALIDATION', 'topic must be the name of the topic whose recent events are the sample.');
    if (body.topic !== undefined && body.events !== undefined)
      throw apiError('VALIDATION', 'give at most one of events and topic (the sample events, or where to read them).');
    if (body.sample !== undefined && body.topic === undefined)
      throw apiError('VALIDATION', 'sample is how many records of topic are read: give topic with it.');
    const sample = body.sample ?? lintSample.default;
    if (!Number.isInteger(sample) || (sample as number) < 1 || (sample as number) > lintSample.max)
      throw apiError(
        'VALIDATION',
        `sample must be an integer from 1 to ${lintSample.max} (records read from the topic), found ${JSON.stringify(sample)}.`,
      );
    const events =
      typeof body.topic === 'string'
        ? { sampleEvents: await sampler.read(body.topic, sample as number), sampleSource: `topic ${body.topic}` }
        : body.events === undefined
          ? {}
          : { sampleEvents: body.events, sampleSource: 'the given events' };
    const lookups = ctx.store.list<{ id: string }>('lookups').map((l) => l.id);
    return counted(lintPdl(body.pdl, { lookups, ...events }));
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
