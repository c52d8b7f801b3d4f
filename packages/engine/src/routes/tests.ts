import { check, compile, isPdlSyntaxError, type LookupResolver } from '@weir/pdl';
import { access } from '../auth/roles.ts';
import { apiError } from '../core/errors.ts';
import { parseJson } from '../http/body-parsers.ts';
import type { StoredPipeline } from '../resources/pipeline.ts';
import type { StoredRule } from '../resources/rule.ts';
import type { StoredTask } from '../resources/task.ts';
import type { ConfigStore } from '../store/config-store.ts';
import { storedLookups } from '../rules/lookup-tables.ts';
import { RuleBook } from '../rules/rule-book.ts';
import {
  compileTask,
  isTaskDefinitionError,
  runPipeline,
  type CompiledTask,
  type TaskEnvironment,
  type TaskRecord,
} from '../tasks/index.ts';
import type { RouteModule } from './route-module.ts';
import { syntaxResult, taskTestResult, testResult } from '@weir/contract';
import { handlerCheckedBody } from '../http/handler-checked-body.ts';

const idParams = { type: 'object', properties: { id: { type: 'string' } } } as const;

/** The bodies: text/plain (spec) or JSON, read and checked by the handlers below (documented here). */
const eventBody = { description: 'the event: a JSON value, sent as text/plain or application/json' };
const recordBody = {
  type: 'string',
  description: 'the record as it would arrive on the input topic (text/plain; JSON is taken as its text)',
};
const pdlBody = {
  type: 'object',
  properties: {
    pdl: { type: 'string' },
    data: { type: 'string', description: 'a JSON-encoded event or array of events' },
  },
};
const syntaxBody = { type: 'object', properties: { pdl: { type: 'string' } } };
const testRoute = (schema: object) => ({ config: { access: access.member }, ...handlerCheckedBody, schema });
type ById = { Params: { id: string } };

/** The body as text: the test endpoints take text/plain (spec) and also JSON. */
function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body === undefined || body === null) throw apiError('TEST_INPUT_INVALID', 'The request body is empty.');
  return JSON.stringify(body);
}

/** A JSON object body (`{pdl, data}`), whether sent as text/plain or application/json. */
function objectBody(body: unknown): Record<string, unknown> {
  const value = typeof body === 'string' ? parseJson(body) : body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw apiError(
      'TEST_INPUT_INVALID',
      'The request body must be a JSON object such as {"pdl": "...", "data": "..."}.',
    );
  }
  return value as Record<string, unknown>;
}

function resultOf(records: readonly TaskRecord[]): unknown {
  if (records.length === 0) return null;
  if (records.length === 1) return records[0]!.value;
  return records.map((r) => r.value);
}

/** A stored task compiled for a test; a task that no longer compiles is a 400 naming it. */
function compileForTest(spec: StoredTask, env: TaskEnvironment): CompiledTask {
  try {
    return compileTask(spec, env);
  } catch (err) {
    if (isTaskDefinitionError(err)) throw apiError('TASK_FAILED', spec.name, err.message);
    throw err;
  }
}

/**
 * The rules APPLY_RULES tasks would skip, and why ("rule `failed` does not exist"): the API accepts a
 * task naming a rule that does not exist (as the original product did), so the test says it.
 * `named`: each warning starts with the task's name (the pipeline test, which runs several tasks).
 */
function skippedRules(specs: readonly StoredTask[], rules: RuleBook, named: boolean): string[] {
  const out: string[] = [];
  for (const spec of specs) {
    if (spec.function !== 'APPLY_RULES' || !Array.isArray(spec.definition.rules)) continue;
    for (const id of spec.definition.rules as unknown[]) {
      const reason = typeof id === 'string' ? rules.skipReason(id) : undefined;
      if (reason !== undefined) out.push(named ? `task ${spec.name}: ${reason}` : reason);
    }
  }
  return out;
}

/** The answer of a task or pipeline test: `warnings` only when a listed rule is skipped. */
function answerOf(records: readonly TaskRecord[], warnings: readonly string[]): Record<string, unknown> {
  return warnings.length === 0 ? { result: resultOf(records) } : { result: resultOf(records), warnings };
}

/** The stored rules, compiled on first use (the engine's book, filled from the store): one per request, so correlations start empty. */
function storedRules(store: ConfigStore, lookups: LookupResolver): RuleBook {
  const rules = new RuleBook();
  rules.readFrom((id) => store.get<StoredRule>('rules', id), lookups);
  return rules;
}

const kinds = {
  task: { one: 'task', many: 'tasks' },
  rule: { one: 'rule', many: 'rules' },
} as const;

/**
 * Spec: Tests. Every test runs the engine's own code (compiled PDL, compiled tasks, runPipeline) on
 * the stored configuration; nothing is written anywhere.
 */
export const testRoutes: RouteModule = (app, ctx) => {
  const lookups = storedLookups(ctx.store);
  app.post<ById>(
    '/api/test/rules/:id',
    testRoute({ params: idParams, body: eventBody, response: { 200: testResult } }),
    async (request) => {
      const rules = storedRules(ctx.store, lookups);
      if (!ctx.store.get('rules', request.params.id)) throw apiError('RESOURCE_MISSING', kinds.rule);
      const event = typeof request.body === 'string' ? parseJson(request.body) : request.body;
      try {
        return { result: rules.compiled(request.params.id)!.run(event, { timestamp: Date.now() }) };
      } catch (err) {
        if (isPdlSyntaxError(err)) throw apiError('PDL_INVALID', err.message);
        throw err;
      }
    },
  );

  app.post<ById>(
    '/api/test/tasks/:id',
    testRoute({ params: idParams, body: recordBody, response: { 200: taskTestResult } }),
    async (request) => {
      const spec = /^\d+$/.test(request.params.id) ? ctx.store.get<StoredTask>('tasks', request.params.id) : undefined;
      if (!spec) throw apiError('RESOURCE_MISSING', kinds.task);
      const rules = storedRules(ctx.store, lookups);
      const result = runPipeline([compileForTest(spec, { rules, lookups })], {
        value: bodyText(request.body),
        timestamp: Date.now(),
      });
      if (result.failures.length > 0) throw apiError('TASK_FAILED', spec.name, result.failures[0]!.message);
      return answerOf(result.records, skippedRules([spec], rules, false));
    },
  );

  app.post<ById>(
    '/api/test/pipelines/:id',
    testRoute({ params: idParams, body: recordBody, response: { 200: taskTestResult } }),
    async (request) => {
      const pipeline = /^\d+$/.test(request.params.id)
        ? ctx.store.get<StoredPipeline>('pipelines', request.params.id)
        : undefined;
      if (!pipeline) throw apiError('PIPELINE_TEST_MISSING');
      const rules = storedRules(ctx.store, lookups);
      const specs = pipeline.tasks.map((id) => {
        const spec = ctx.store.get<StoredTask>('tasks', String(id));
        if (!spec)
          throw apiError('TEST_INPUT_INVALID', `Pipeline ${pipeline.id} refers to task ${id}, which does not exist.`);
        return spec;
      });
      const tasks = specs.map((spec) => compileForTest(spec, { rules, lookups }));
      const result = runPipeline(tasks, { value: bodyText(request.body), timestamp: Date.now() });
      if (result.failures.length > 0) {
        const f = result.failures[0]!;
        throw apiError('TASK_FAILED', f.task.name, f.message);
      }
      return answerOf(result.records, skippedRules(specs, rules, true));
    },
  );

  app.post('/api/test/pdl', testRoute({ body: pdlBody, response: { 200: testResult } }), async (request) => {
    const body = objectBody(request.body);
    if (typeof body.pdl !== 'string')
      throw apiError('TEST_INPUT_INVALID', 'pdl must be a string holding the PDL text.');
    if (typeof body.data !== 'string')
      throw apiError('TEST_INPUT_INVALID', 'data must be a string holding a JSON-encoded event or array of events.');
    let data: unknown;
    try {
      data = JSON.parse(body.data);
    } catch (err) {
      throw apiError('TEST_INPUT_INVALID', `data is not valid JSON: ${(err as Error).message}`);
    }
    let program;
    try {
      program = compile(body.pdl, { lookups });
    } catch (err) {
      if (isPdlSyntaxError(err)) throw apiError('PDL_INVALID', err.message);
      throw err;
    }
    if (!Array.isArray(data)) return { result: program.run(data, { timestamp: Date.now() }) };
    // An array: the events are fed in order with state kept across them (correlations); every emission is returned.
    const emitted: unknown[] = [];
    for (const event of data) emitted.push(...program.feed(event, { timestamp: Date.now() }));
    // The sample is all there is: its end closes every open emit=close window, as a stream does once
    // its time passes the window's end (emit=event windows have nothing more to give).
    emitted.push(...program.advanceTime(Number.MAX_SAFE_INTEGER));
    return { result: emitted };
  });

  app.post(
    '/api/test/pdl/syntax',
    testRoute({ body: syntaxBody, response: { 200: syntaxResult } }),
    async (request) => {
      const body = objectBody(request.body);
      if (typeof body.pdl !== 'string')
        throw apiError('TEST_INPUT_INVALID', 'pdl must be a string holding the PDL text.');
      const outcome = check(body.pdl, { lookups });
      return outcome.result ? { result: true } : { result: false, error: outcome.error };
    },
  );
};
