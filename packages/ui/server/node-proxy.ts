import type http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dropResponse } from './api-proxy.ts';
import type { EngineAgents } from './engine-agents.ts';
import type { UiSettings } from './ui-settings.ts';

/** The only calls passed to another node: what the Overview and the Topologies page (graph, retention warnings) need per node. */
export const nodeCalls: ReadonlyMap<string, string> = new Map([
  ['/api/metrics/summary', 'GET'],
  ['/api/engine/state', 'GET'],
  ['/api/engine/warnings', 'GET'],
  ['/api/engine/start', 'POST'],
  ['/api/engine/stop', 'POST'],
]);
const restTtlMs = 10_000;

type NodeRequest = FastifyRequest<{ Params: { uuid: string; '*': string } }>;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: http.IncomingMessage;
}

/**
 * `/ui/nodes/{uuid}/api/…`: a call to another node of the cluster, for the browser, which cannot
 * reach the nodes itself (the CSP allows only this origin, and each node has its own certificate).
 * The node's `rest` URL is read from the configured engine's registry (`GET /api/nodes/{uuid}` with
 * the caller's token, kept 10 s), so only registered nodes are reached, and only the calls in
 * `nodeCalls`; the caller's `Authorization` goes with it and that node checks it (docs/ui.md → Cluster).
 */
export function registerNodeProxy(app: FastifyInstance, settings: UiSettings, agents: EngineAgents): void {
  const rests = new Map<string, { rest: URL; until: number }>();
  const home = {
    secure: settings['api.ssl.enabled'],
    host: settings['api.host'],
    port: settings['api.port'],
  };

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.route({ method: ['GET', 'POST'], url: '/ui/nodes/:uuid/api/*', handler: relay });
  });

  async function relay(request: NodeRequest, reply: FastifyReply) {
    const { uuid } = request.params;
    const path = `/api/${request.params['*']}`.split('?')[0]!;
    if (nodeCalls.get(path) !== request.method || !/^[\w-]{1,64}$/.test(uuid)) {
      const allowed = [...nodeCalls].map(([p, m]) => `${m} ${p}`).join(', ');
      return reply.code(404).send({
        status: 'NOT_FOUND',
        message: 'Resource not found',
        debugMessage: `The UI server passes only ${allowed} to another node, found ${request.method} ${path}`,
      });
    }
    const authorization = request.headers.authorization;
    const headers: http.OutgoingHttpHeaders = {
      accept: 'application/json',
      ...(authorization ? { authorization } : {}),
    };
    let rest = rests.get(uuid);
    if (!rest || rest.until < Date.now()) {
      const found = await call(home, 'GET', `/api/nodes/${uuid}`, headers).catch((err: Error) => err);
      if (found instanceof Error) return unreachable(reply, `the engine at ${home.host}:${home.port}`, found);
      if (found.status !== 200) return pass(reply, found);
      const node = JSON.parse(await text(found.body)) as { rest?: string };
      let url: URL;
      try {
        url = new URL(node.rest ?? '');
        if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(url.protocol);
      } catch {
        return reply.code(502).send({
          status: 'BAD_GATEWAY',
          message: 'Bad gateway',
          debugMessage: `Node ${uuid} registered a REST URL that is not http(s): ${JSON.stringify(node.rest)}`,
        });
      }
      rest = { rest: url, until: Date.now() + restTtlMs };
      rests.set(uuid, rest);
    }
    const target = {
      secure: rest.rest.protocol === 'https:',
      host: rest.rest.hostname,
      port: Number(rest.rest.port || (rest.rest.protocol === 'https:' ? 443 : 80)),
    };
    const answer = await call(target, request.method, path, {
      ...headers,
      ...(request.method === 'POST' ? { 'content-length': '0' } : {}),
    }).catch((err: Error) => err);
    if (answer instanceof Error) {
      rests.delete(uuid);
      return unreachable(reply, `node ${uuid} at ${rest.rest.origin}`, answer);
    }
    return pass(reply, answer);
  }

  function call(
    to: { secure: boolean; host: string; port: number },
    method: string,
    path: string,
    headers: http.OutgoingHttpHeaders,
  ): Promise<Answer> {
    const { agent, lib } = agents.for(to.secure, to.host);
    return new Promise((resolve, reject) => {
      const req = lib.request(
        { host: to.host.replace(/^\[|\]$/g, ''), port: to.port, method, path, headers, agent, timeout: 5000 },
        (res) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: res }),
      );
      req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
      req.on('error', reject);
      req.end();
    });
  }
}

function pass(reply: FastifyReply, answer: Answer) {
  for (const [k, v] of Object.entries(answer.headers)) if (!dropResponse.has(k) && v !== undefined) reply.header(k, v);
  return reply.code(answer.status).send(answer.body);
}

function unreachable(reply: FastifyReply, what: string, err: Error) {
  return reply.code(503).send({
    status: 'SERVICE_UNAVAILABLE',
    message: 'Service unavailable',
    debugMessage: `The UI server cannot reach ${what}: ${err.message}`,
  });
}

async function text(body: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
