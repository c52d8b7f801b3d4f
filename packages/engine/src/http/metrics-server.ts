import Fastify, { type FastifyInstance } from 'fastify';
import { fixedHeaders } from '@weir/contract';
import type { Settings } from '../config/settings.ts';
import type { EngineMetrics } from '../stream/engine-metrics.ts';

/**
 * `GET /metrics` in Prometheus text on its own plain-HTTP port (`weir.metrics.*`), bound to
 * 127.0.0.1 by default: scrapers cannot renew short-lived API tokens, so the endpoint is kept off
 * the API and on an address the operator chooses (docs/engine.md).
 */
export async function startMetricsServer(settings: Settings, metrics: EngineMetrics): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(fixedHeaders);
  });
  app.get('/metrics', async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  await app.listen({ host: settings.get('weir.metrics.address'), port: settings.get('weir.metrics.port') });
  return app;
}
