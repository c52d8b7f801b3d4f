import { access } from '../auth/roles.ts';
import type { RouteModule } from './route-module.ts';
import { engineStates, engineWarnings } from '@weir/contract';

/** Spec: Engine. One state per stream thread; start is refused (400) unless the engine is stopped. */
export const engineRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/api/engine/state',
    { config: { access: access.member }, schema: { response: { 200: engineStates } } },
    async () => ({ states: ctx.engine.states() }),
  );
  // Not in the spec (docs/api.md → Engine): the node's retention warnings, for the console.
  app.get(
    '/api/engine/warnings',
    { config: { access: access.member }, schema: { response: { 200: engineWarnings } } },
    async () => ({ warnings: ctx.engine.warnings() }),
  );
  // Audited before acting (docs/security.md, "Audit trail"): no start or stop happens unrecorded.
  app.post(
    '/api/engine/stop',
    { config: { access: access.admin }, schema: { response: { 200: engineStates } } },
    async () => {
      await ctx.store.record('engine', 'stop', ctx.uuid);
      return { states: await ctx.engine.stop() };
    },
  );
  // A start refused because the engine is not stopped is not recorded: it is checked first.
  app.post(
    '/api/engine/start',
    { config: { access: access.admin }, schema: { response: { 200: engineStates } } },
    async () => ({
      states: await ctx.engine.start(() => ctx.store.record('engine', 'start', ctx.uuid)),
    }),
  );
};
