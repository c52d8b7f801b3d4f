import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { fixedHeaders, hstsHeader } from '@weir/contract';
import type { TlsMaterial } from '../http/tls.ts';
import { registerAccessControl, isForbidden } from '../http/access-control.ts';
import { registerBodyParsers } from '../http/body-parsers.ts';
import type { NodeContext } from '../http/node-context.ts';
import { apiError, type ApiError, type DomainError } from '../core/errors.ts';
import { answerOf } from '../http/error-map.ts';
import { registerOpenApi } from '../http/openapi.ts';
import { registerHealth } from '../http/health.ts';
import { clientError, frameworkError, maxPathParamLength } from '../http/http-layer-errors.ts';
import { routeModules } from '../routes/index.ts';
import { compiledSchema } from '../validation/json-schema.ts';
import { violationError } from '../http/request-violations.ts';
import type { ErrorObject } from 'ajv';

/** The management API of one node: Fastify with the spec's headers, errors and access control. */
export async function createApi(ctx: NodeContext, tls: TlsMaterial | undefined): Promise<FastifyInstance> {
  const bodyLimit = ctx.settings.get('weir.http.body-limit');
  const options: FastifyServerOptions & { https?: { pfx: Buffer; passphrase: string } } = {
    logger: { level: ctx.settings.get('weir.log.level') },
    bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxPathParamLength },
    frameworkErrors: frameworkError,
  };
  // The console's UI server passes the browser's address in X-Forwarded-For: trusted from these
  // proxies only, so per-address limits (sign-in failures) and audit entries see the real client.
  const proxies = ctx.settings
    .get('weir.http.trusted-proxies')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (proxies.length > 0) options.trustProxy = proxies;
  // Slow clients: headers and the whole request must arrive in time (checked every second), else 408.
  const headersTimeout = ctx.settings.get('weir.http.headers-timeout-seconds') * 1000;
  const requestTimeout = ctx.settings.get('weir.http.request-timeout-seconds') * 1000;
  options.requestTimeout = requestTimeout;
  options.clientErrorHandler = clientError({ headers: headersTimeout / 1000, request: requestTimeout / 1000 });
  const serverLimits = { headersTimeout, requestTimeout, connectionsCheckingInterval: 1000 };
  if (tls) options.https = { pfx: tls.pfx, passphrase: tls.passphrase, ...serverLimits } as typeof options.https;
  const app = Fastify(options) as unknown as FastifyInstance;
  app.server.headersTimeout = headersTimeout;
  app.server.requestTimeout = requestTimeout;
  app.server.maxConnections = ctx.settings.get('weir.http.max-connections');
  const headers = tls ? { ...fixedHeaders, ...hstsHeader } : fixedHeaders;
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
  // One validator for the whole node: route schemas compile with the resource schemas' Ajv.
  app.setValidatorCompiler(({ schema, httpPart }) => compiledSchema(schema, httpPart));
  registerBodyParsers(app);
  registerAccessControl(app, ctx);
  // Request rate per login session (a token pair and the pairs refreshed from it), counted after
  // authentication, so a script signed in as a user never exhausts the budget of that user's console
  // session; public routes (login, refresh, init, docs) per address; probes are free.
  const perMinute = ctx.settings.get('weir.http.rate-limit-per-minute');
  await app.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    hook: 'preHandler',
    keyGenerator: (request: FastifyRequest) =>
      request.principal ? `session:${request.loginSession}` : `address:${request.ip}`,
    allowList: (request: FastifyRequest) => request.routeOptions.config.health === true,
    errorResponseBuilder: (request: FastifyRequest, context: { ttl: number }) =>
      apiError(
        'API_RATE_LIMITED',
        perMinute,
        Math.max(1, Math.ceil(context.ttl / 1000)),
        request.principal ? 'this login session' : 'this address',
      ),
  });

  app.setErrorHandler((error: FastifyError | ApiError | DomainError, request, reply) => {
    if (isForbidden(error)) return reply.code(403).send();
    const apiErr = toApiError(
      error,
      bodyLimit,
      String(request.id),
      request.routeOptions.config.invalid,
      request.headers['content-type'],
    );
    if (apiErr.httpStatus >= 500) request.log.error({ err: error, reqId: request.id }, 'request failed');
    return reply.code(apiErr.httpStatus).type('application/json').send(apiErr.body);
  });
  app.setNotFoundHandler((request, reply) => {
    const err = apiError('ROUTE_MISSING', request.method, request.url.split('?')[0]!);
    return reply.code(404).type('application/json').send(err.body);
  });

  await registerOpenApi(app);
  registerHealth(app, ctx, ctx.lifecycle);
  for (const register of routeModules) await register(app, ctx);
  return app;
}

function toApiError(
  error: FastifyError | ApiError | DomainError,
  bodyLimit: number,
  requestId: string,
  invalid: ((errors: readonly ErrorObject[], part: string) => ApiError) | undefined,
  contentType: string | undefined,
): ApiError {
  const answer = answerOf(error);
  if (answer !== undefined) return answer;
  const e = error as FastifyError;
  if (e.validation) {
    return (invalid ?? violationError)(e.validation as ErrorObject[], e.validationContext ?? 'body');
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return apiError('BODY_TOO_LARGE', bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // Fastify's message does not name the type: the request's header does (bounded, it is echoed).
      return apiError('MEDIA_TYPE', (contentType ?? '').slice(0, 100));
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return apiError('VALIDATION', 'Content-Length does not match the body');
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return apiError('VALIDATION', e.message);
  }
  return apiError('INTERNAL', requestId);
}
