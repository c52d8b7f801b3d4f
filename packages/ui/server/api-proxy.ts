import type http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EngineAgents } from './engine-agents.ts';
import type { UiSettings } from './ui-settings.ts';
import { refreshCookie } from './session-cookie.ts';

/** Request headers not passed on to the engine (hop-by-hop, and the browser's cookies). */
const dropRequest = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'cookie',
  'proxy-authorization',
  'te',
  'trailer',
]);
export const dropResponse = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'trailer']);

/**
 * `/api/*` proxied to the engine (spec: Web UI settings `api.host`, `api.port`), streamed both ways
 * (server-sent events pass through). Two calls are watched, to keep the refresh token in an
 * httpOnly cookie: a successful login or refresh sets it, and a refresh without `Authorization`
 * uses it (the session survives a page reload without the token ever touching localStorage).
 */
export function registerApiProxy(app: FastifyInstance, settings: UiSettings, agents: EngineAgents): void {
  const secure = settings['api.ssl.enabled'];
  const { agent, lib } = agents.for(secure, settings['api.host']);

  app.register(async (scope) => {
    // Bodies go to the engine untouched: no parsing here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all('/api/*', (request, reply) => forward(request, reply));
    scope.all('/api', (request, reply) => forward(request, reply));
  });

  function forward(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(request.headers)) if (!dropRequest.has(k) && v !== undefined) headers[k] = v;
    const path = request.url;
    const isLogin = request.method === 'POST' && path.split('?')[0] === '/api/login';
    const isRefresh = request.method === 'GET' && path.split('?')[0] === '/api/token/refresh';
    if (isRefresh && !headers.authorization) {
      const fromCookie = refreshCookie.read(request.headers.cookie);
      if (fromCookie) headers.authorization = `Bearer ${fromCookie}`;
    }
    headers['x-forwarded-for'] = request.ip;
    headers['x-forwarded-proto'] = secure ? 'https' : 'http';
    reply.hijack();
    return new Promise<void>((resolve) => {
      const upstream = lib.request(
        { host: settings['api.host'], port: settings['api.port'], method: request.method, path, headers, agent },
        (res) => {
          const out: http.OutgoingHttpHeaders = {};
          for (const [k, v] of Object.entries(res.headers)) if (!dropResponse.has(k) && v !== undefined) out[k] = v;
          const status = res.statusCode ?? 502;
          if ((isLogin || isRefresh) && status === 200) {
            // Buffer the small token answer to set the cookie from it.
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const body = Buffer.concat(chunks);
              try {
                const tokens = JSON.parse(body.toString('utf8')) as { refresh_token?: string };
                if (tokens.refresh_token) out['set-cookie'] = refreshCookie.set(tokens.refresh_token);
              } catch {
                // not JSON: pass it on as it is
              }
              out['content-length'] = String(body.length);
              reply.raw.writeHead(status, { ...(reply.getHeaders() as http.OutgoingHttpHeaders), ...out });
              reply.raw.end(body);
              resolve();
            });
            return;
          }
          if (isRefresh && (status === 401 || status === 403)) out['set-cookie'] = refreshCookie.clear();
          reply.raw.writeHead(status, { ...(reply.getHeaders() as http.OutgoingHttpHeaders), ...out });
          res.pipe(reply.raw);
          res.on('end', resolve);
          res.on('error', () => {
            reply.raw.destroy();
            resolve();
          });
        },
      );
      upstream.on('error', (err) => {
        if (!reply.raw.headersSent) {
          const body = JSON.stringify({
            status: 'SERVICE_UNAVAILABLE',
            message: 'Service unavailable',
            debugMessage: `The UI server cannot reach the engine at ${settings['api.host']}:${settings['api.port']}: ${err.message}`,
          });
          reply.raw.writeHead(503, {
            ...(reply.getHeaders() as http.OutgoingHttpHeaders),
            'content-type': 'application/json',
          });
          reply.raw.end(body);
        } else {
          reply.raw.destroy();
        }
        resolve();
      });
      // The browser went away (a closed live tail): stop the upstream request too.
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) upstream.destroy();
      });
      request.raw.pipe(upstream);
    });
  }
}
