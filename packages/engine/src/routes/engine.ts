import { access } from '../auth/roles.ts';
import type { RouteModule } from './route-module.ts';

/** Spec: Engine. One state per stream thread; start is refused (400) unless the engine is stopped. */
export const engineRoutes: RouteModule = (app, ctx) => {
  app.get('/api/engine/state', { config: { access: access.member } }, async () => ({ states: ctx.engine.states() }));
  // Audited before acting (docs/security.md, "Audit trail"): no start or stop happens unrecorded.
  app.post('/api/engine/stop', { config: { access: access.admin } }, async () => {
    await ctx.store.record('engine', 'stop', ctx.uuid);
    return { states: await ctx.engine.stop() };
  });
  app.post('/api/engine/start', { config: { access: access.admin } }, async () => {
    await ctx.store.record('engine', 'start', ctx.uuid);
    return { states: await ctx.engine.start() };
  });
};
