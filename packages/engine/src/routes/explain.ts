import { explain, isPdlSyntaxError } from '@weir/pdl';
import { explainBody, explanation, type ExplainRequest } from '@weir/contract';
import { access } from '../auth/roles.ts';
import { apiError } from '../core/errors.ts';
import type { StoredRule } from '../resources/rule.ts';
import { storedLookups } from '../rules/lookup-tables.ts';
import type { RouteModule } from './route-module.ts';

/** The PDL to explain: the text sent, or the stored rule's (a missing rule: 404). */
function ruleText(body: ExplainRequest, rule: (id: string) => StoredRule | undefined): string {
  if ((body.pdl === undefined) === (body.ruleId === undefined))
    throw apiError('TEST_INPUT_INVALID', 'Send exactly one of pdl (the rule as PDL text) and ruleId (a stored rule).');
  if (body.pdl !== undefined) return body.pdl;
  const stored = rule(body.ruleId as string);
  if (stored === undefined) throw apiError('RESOURCE_MISSING', { one: 'rule', many: 'rules' });
  return stored.pdl;
}

/**
 * Explain (docs/detection-as-code.md, "Explain"): why a rule did or did not match an event, with
 * the compiled rule's semantics (the same as POST /api/test/pdl: one event is run, a sample is fed
 * in order and its end closes open windows). Reads only; nothing is written anywhere.
 */
export const explainRoutes: RouteModule = (app, ctx) => {
  const lookups = storedLookups(ctx.store);
  app.post<{ Body: ExplainRequest }>(
    '/api/explain/pdl',
    { config: { access: access.member }, schema: { body: explainBody, response: { 200: explanation } } },
    async (request) => {
      const body = request.body;
      const pdl = ruleText(body, (id) => ctx.store.get<StoredRule>('rules', id));
      if (Object.hasOwn(body, 'event') === Object.hasOwn(body, 'events'))
        throw apiError(
          'TEST_INPUT_INVALID',
          'Send exactly one of event (a JSON event) and events (an array of events fed in order).',
        );
      try {
        return explain(pdl, Object.hasOwn(body, 'event') ? body.event : body.events, { lookups });
      } catch (err) {
        if (isPdlSyntaxError(err))
          throw apiError(
            'PDL_INVALID',
            body.ruleId === undefined ? err.message : `rule ${body.ruleId}: ${err.message}`,
          );
        throw err;
      }
    },
  );
};
