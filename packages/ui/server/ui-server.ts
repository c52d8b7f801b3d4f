import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { fixedHeaders, hstsHeader } from '@weir/contract';
import { registerApiProxy } from './api-proxy.ts';
import { EngineAgents } from './engine-agents.ts';
import { registerNodeProxy } from './node-proxy.ts';
import { contentSecurityPolicy, immutableCache, referrerPolicy } from './security-headers.ts';
import { refreshCookie } from './session-cookie.ts';
import { loadAssets, type Asset } from './static-assets.ts';
import type { UiSettings } from './ui-settings.ts';
import { loadUiTls } from './ui-tls.ts';

export interface UiServer {
  readonly app: FastifyInstance;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The Weir Console's server: the built app from memory (hashed assets cached for a year, everything
 * else `no-store`), `/api/*` proxied to the engine (and a few per-node calls to the other nodes of its cluster), HTTPS by default, the spec's fixed headers and a
 * strict CSP on every response.
 */
export async function startUiServer(settings: UiSettings, dist: string): Promise<UiServer> {
  const assets = loadAssets(dist);
  const secure = settings['server.ssl.enabled'];
  const tls = secure ? await loadUiTls(settings) : undefined;
  const app = (tls
    ? Fastify({ logger: false, https: { key: tls.key, cert: tls.cert } })
    : Fastify({ logger: false })) as unknown as FastifyInstance;
  const always = {
    ...fixedHeaders,
    ...referrerPolicy,
    'content-security-policy': contentSecurityPolicy,
    ...(secure ? hstsHeader : {}),
  };
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(always);
  });

  const agents = new EngineAgents(settings);
  registerApiProxy(app, settings, agents);
  registerNodeProxy(app, settings, agents);

  app.post('/ui/session/logout', async (_request, reply) => {
    reply.header('set-cookie', refreshCookie.clear());
    return reply.code(204).send();
  });

  const send = (asset: Asset, accept: string | undefined, reply: FastifyReply) => {
    if (asset.immutable) reply.headers(immutableCache).removeHeader('pragma').removeHeader('expires');
    reply.header('content-type', asset.type).header('vary', 'accept-encoding');
    if (asset.brotli && accept?.includes('br')) return reply.header('content-encoding', 'br').send(asset.brotli);
    if (asset.gzip && accept?.includes('gzip')) return reply.header('content-encoding', 'gzip').send(asset.gzip);
    return reply.send(asset.body);
  };

  app.get('/*', async (request, reply) => {
    const pathname = decodeURIComponent(request.url.split('?')[0]!);
    const asset = assets.get(pathname);
    if (asset) return send(asset, request.headers['accept-encoding'], reply);
    // A missing hashed asset is a 404 (an old page asking for a file a new build replaced), not the app.
    if (pathname.startsWith('/assets/') || pathname.startsWith('/ui/'))
      return reply.code(404).type('text/plain; charset=utf-8').send(`${pathname} not found`);
    // Client-side routes (/rules/r1, /topics/x): the app's page.
    return send(assets.get('/index.html')!, request.headers['accept-encoding'], reply);
  });

  const address = await app.listen({ host: settings['server.host'], port: settings['server.port'] });
  const port = new URL(address).port;
  return {
    app,
    url: `${secure ? 'https' : 'http'}://localhost:${port}`,
    close: () => app.close(),
  };
}
