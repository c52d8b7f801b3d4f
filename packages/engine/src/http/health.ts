import type { FastifyInstance } from 'fastify';
import { access } from '../auth/roles.ts';
import type { HealthState, NodeContext } from './node-context.ts';
import { responseShape } from '@weir/contract';

/** How long one broker probe result is reused, and the longest a probe may take. */
const probeCacheMs = 5000;
const probeTimeoutMs = 2000;

export type { HealthState } from './node-context.ts';

/** `{status: UP | DOWN, checks}`: the checks (ready only) name each dependency and why it fails. */
const healthAnswer = responseShape({
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['UP', 'DOWN'] },
    checks: { type: 'object', description: 'per dependency: its state, and why it fails' },
  },
});

/**
 * `GET /health/live` and `GET /health/ready` (docs/operations.md, "Health checks"): no token, no
 * store or Kafka work per request. Live is 200 while the process serves HTTP. Ready is 200 when the
 * config store is open, the Kafka cluster answered a metadata request within the last 5 s (one probe
 * at a time, at most one per 5 s, whatever the probe rate) and the engine's state is known (every
 * stream thread has reported one); else 503 with the failing checks.
 */
export function registerHealth(app: FastifyInstance, ctx: NodeContext, state: HealthState): void {
  let kafka: { ok: boolean; error?: string; at: number } = { ok: false, error: 'not probed yet', at: 0 };
  let probing: Promise<void> | undefined;
  const probe = (): Promise<void> => {
    probing ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          ctx.topics.admin.ping(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${probeTimeoutMs} ms`)), probeTimeoutMs);
          }),
        ]);
        kafka = { ok: true, at: Date.now() };
      } catch (err) {
        kafka = { ok: false, error: (err as Error).message, at: Date.now() };
      } finally {
        clearTimeout(timer);
        probing = undefined;
      }
    })();
    return probing;
  };

  app.get(
    '/health/live',
    { config: { health: true, access: access.public }, schema: { response: { 200: healthAnswer } } },
    async () => ({ status: 'UP' }),
  );

  app.get(
    '/health/ready',
    { config: { health: true, access: access.public }, schema: { response: { 200: healthAnswer, 503: healthAnswer } } },
    async (_request, reply) => {
      if (Date.now() - kafka.at > probeCacheMs) await probe();
      const engine = ctx.engine.state();
      const checks = {
        store: state.stopping ? 'DOWN: the node is stopping' : 'UP',
        kafka: kafka.ok ? 'UP' : `DOWN: ${kafka.error ?? 'unreachable'}`,
        engine: engine === 'CREATED' ? 'UNKNOWN' : engine,
      };
      const ready = !state.stopping && kafka.ok && engine !== 'CREATED';
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'UP' : 'DOWN', checks });
    },
  );
}
