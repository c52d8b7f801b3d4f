import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { fixedHeaders } from '@weir/contract';
import { access, type RouteAccess } from '../auth/roles.ts';

/** Where the interactive reference lives; its routes (page, assets, `json`) are public, like the document. */
export const docsPrefix = '/api/docs';

function roles(routeAccess: RouteAccess | undefined): readonly string[] {
  return routeAccess === undefined || routeAccess === 'public' ? [] : routeAccess;
}

/**
 * The OpenAPI document of the API (`GET /api/openapi.json`) and an interactive reference at
 * `/api/docs`, served from the node itself (the Swagger UI assets come from node_modules; no CDN).
 * Every operation says who may call it: `security` (a bearer access token, or none when public)
 * and `x-weir-roles` (the roles allowed; empty when public). Register before the routes.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Weir management API',
        version: '1',
        description:
          'See docs/api.md. Every /api route but login, refresh, init and these docs needs `Authorization: Bearer <access_token>`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: ({ schema, url, route }) => {
      const routeAccess = route.config?.access;
      const documented = {
        ...schema,
        security: routeAccess === access.public ? [] : [{ bearer: [] }],
        'x-weir-roles': roles(routeAccess),
      };
      return { schema: documented as typeof schema, url };
    },
  });
  app.get(
    '/api/openapi.json',
    {
      config: { access: access.public },
      schema: {
        response: { 200: { type: 'object', additionalProperties: true, description: 'this document (OpenAPI 3)' } },
      },
    },
    async () => app.swagger(),
  );
  await app.register(async (scope) => {
    // The Swagger UI's static files set their own caching headers; the spec's fixed headers win.
    scope.addHook('onSend', async (_request, reply) => {
      reply.headers(fixedHeaders);
    });
    await scope.register(swaggerUi, {
      routePrefix: docsPrefix,
      staticCSP: true,
      uiConfig: { url: '/api/openapi.json' } as never,
    });
  });
}
