import { danglingReferences as referencesAnswer } from '@weir/contract';
import { access } from '../auth/roles.ts';
import { brokerReason } from '../kafka/broker-errors.ts';
import type { Lookup } from '../resources/lookup.ts';
import type { StoredPipeline } from '../resources/pipeline.ts';
import { danglingReferences } from '../resources/references.ts';
import type { StoredRule } from '../resources/rule.ts';
import type { StoredTask } from '../resources/task.ts';
import type { StoredTopology } from '../resources/topology.ts';
import type { RouteModule } from './route-module.ts';

/**
 * GET /api/diagnostics/references (docs/api.md, "Diagnostics"): every reference of the stored
 * configuration to something that does not exist. The API accepts such configuration (as the
 * original product did); this lists what the engine will skip or wait for.
 */
export const diagnosticsRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/api/diagnostics/references',
    { config: { access: access.member }, schema: { response: { 200: referencesAnswer } } },
    async () => {
      let topics: ReadonlySet<string> | undefined;
      let topicsError: string | undefined;
      try {
        topics = new Set(await ctx.topics.admin.list());
      } catch (err) {
        // Kafka unreachable: the configuration's own references are still worth answering.
        topicsError = `topics not checked: Kafka at ${ctx.topics.bootstrap} did not answer (${brokerReason(err)})`;
      }
      const lookups = new Map<string, boolean>();
      const lookupExists = (id: string): boolean => {
        let found = lookups.get(id);
        if (found === undefined) lookups.set(id, (found = ctx.store.get<Lookup>('lookups', id) !== undefined));
        return found;
      };
      const references = danglingReferences({
        topologies: ctx.store.list<StoredTopology>('topologies'),
        pipelines: ctx.store.list<StoredPipeline>('pipelines'),
        tasks: ctx.store.list<StoredTask>('tasks'),
        rules: ctx.store.list<StoredRule>('rules'),
        lookupExists,
        ...(topics === undefined ? {} : { topics }),
      });
      return {
        count: references.length,
        topicsChecked: topics !== undefined,
        ...(topicsError === undefined ? {} : { topicsError }),
        references,
      };
    },
  );
};
