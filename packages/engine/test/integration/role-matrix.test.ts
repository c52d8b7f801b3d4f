import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { apiRoutes, registerAccessControl } from '../../src/http/access-control.ts';
import type { NodeContext } from '../../src/http/node-context.ts';
import { useTestNode } from '@weir/test-helpers/test-node';

/** Fills path parameters: the caller's own username, a numeric id, a uuid, or a missing name. Live tails end after 1 s. */
function concrete(url: string, username: string): string {
  const bounded = url.endsWith('/tail') ? `${url}?maxSeconds=1` : url;
  return bounded
    .replace(':username', username)
    .replace(/:id\b/, url.startsWith('/api/nodes') ? randomUUID() : '424242')
    .replace(/:(\w+)/g, 'no-such-$1');
}

describe('role matrix: every /api route, with no token and with a user token', () => {
  let userToken: string;
  const t = useTestNode({}, async () => {
    const admin = await t.initAdmin();
    userToken = await t.createUser(admin, 'uma');
  });

  test('routes are declared', () => {
    const routes = apiRoutes(t.node.api);
    assert.ok(routes.length >= 10, `only ${routes.length} routes`);
    assert.ok(routes.some((r) => r.url === '/api/users' && r.method === 'POST'));
  });

  test('no token → 401 (public routes excepted); user token → 403 on admin routes, allowed on member routes', async () => {
    for (const route of apiRoutes(t.node.api)) {
      const path = concrete(route.url, 'uma');
      const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
      const anonymous = await t.call(route.method, path, { body });
      const label = `${route.method} ${route.url}`;
      if (route.access === 'public') {
        assert.notEqual(anonymous.status, 403, label);
        continue;
      }
      assert.equal(anonymous.status, 401, label);
      assert.equal(anonymous.text, '', label);
      const asUser = await t.call(route.method, path, { body, token: userToken });
      if (route.access.includes('user')) {
        assert.ok(asUser.status !== 401 && asUser.status !== 403, `${label} refused a user: ${asUser.status}`);
      } else {
        assert.equal(asUser.status, 403, label);
        assert.equal(asUser.text, '', label);
      }
    }
  });

  test('a route that declares no access cannot be registered', () => {
    const app = Fastify();
    registerAccessControl(app, {} as NodeContext);
    assert.throws(
      () => app.get('/api/undeclared', async () => 'x'),
      /route GET \/api\/undeclared declares no access \(config\.access\)/,
    );
  });
});
