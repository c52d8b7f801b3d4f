import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiRoutes } from '../../src/http/access-control.ts';
import { docsPrefix } from '../../src/http/openapi.ts';
import { useTestNode } from '@weir/test-helpers/test-node';

type Operation = {
  security?: unknown[];
  'x-weir-roles'?: string[];
  requestBody?: unknown;
  parameters?: { in: string; name: string }[];
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }
  >;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

const fixed = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
};

describe('OpenAPI document and reference', () => {
  const t = useTestNode({ 'weir.engine.autostart': 'false' });

  test('GET /api/openapi.json (no token) lists every registered route with the roles that may call it', async () => {
    const res = await t.call('GET', '/api/openapi.json');
    assert.equal(res.status, 200, res.text);
    const doc = res.body as Document;
    assert.match(doc.openapi, /^3\./);
    const routes = apiRoutes(t.node.api).filter((r) => !r.url.startsWith(docsPrefix));
    assert.ok(routes.length >= 40, `only ${routes.length} routes`);
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      assert.ok(operation, `${route.method} ${route.url} is not in the document`);
      const roles = route.access === 'public' ? [] : [...route.access];
      assert.deepEqual(operation['x-weir-roles'], roles, `${route.method} ${route.url}`);
      assert.deepEqual(
        operation.security,
        route.access === 'public' ? [] : [{ bearer: [] }],
        `${route.method} ${route.url}`,
      );
    }
    // Routes of issue 13: the audit trail (admin), logout (checks the token it is given itself) and
    // the health probes (no token).
    assert.deepEqual(doc.paths['/api/audit']!.get!['x-weir-roles'], ['admin']);
    assert.ok(doc.paths['/api/logout']!.post, 'POST /api/logout is in the document');
    for (const probe of ['/health/live', '/health/ready']) {
      const operation = doc.paths[probe]?.get;
      assert.ok(operation, `GET ${probe} is not in the document`);
      assert.deepEqual([operation['x-weir-roles'], operation.security], [[], []], probe);
    }
    // Contents from the schemas: a body the resource validates, a path parameter, a produce body.
    assert.ok(doc.paths['/api/tasks']!.post!.requestBody, 'POST /api/tasks documents its body');
    assert.ok(
      doc.paths['/api/users/{username}']!.get!.parameters!.some((p) => p.in === 'path' && p.name === 'username'),
    );
    assert.ok(doc.paths['/api/topics/{name}/produce']!.post!.requestBody);
    assert.ok(doc.paths['/api/topics']!.post!.requestBody, 'the topic body is declared on its route');
    assert.ok(doc.paths['/api/lookups']!.post!.requestBody, 'the lookup upload is declared on its route');
  });

  test('every operation documents its answer: a declared response schema (or a described empty one), not the default', async () => {
    const doc = (await t.call('GET', '/api/openapi.json')).body as Document;
    for (const route of apiRoutes(t.node.api).filter((r) => !r.url.startsWith(docsPrefix))) {
      const operation = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]![route.method.toLowerCase()]!;
      const success = Object.entries(operation.responses ?? {}).filter(([code]) => code.startsWith('2'));
      assert.ok(
        success.length > 0 && success.every(([, r]) => r.content !== undefined || r.description !== 'Default Response'),
        `${route.method} ${route.url}: ${JSON.stringify(operation.responses)}`,
      );
    }
    const answer = (path: string, method: string, code: string) =>
      doc.paths[path]![method]!.responses![code]!.content!['application/json']!.schema!;
    assert.deepEqual(Object.keys(answer('/api/users/{username}', 'get', '200').properties!), [
      'username',
      'name',
      'email',
      'roles',
    ]);
    assert.ok(answer('/api/tasks/{id}', 'get', '200').properties!.definition, 'a task answer shows its definition');
    assert.ok(answer('/api/topics/{name}', 'get', '200').properties!.numberOfPartitions);
  });

  test('/api/docs serves the interactive reference from the node itself, with the fixed headers', async () => {
    let page = await t.call('GET', `${docsPrefix}/`);
    if (page.status >= 300 && page.status < 400) page = await t.call('GET', String(page.headers.location));
    assert.equal(page.status, 200, page.text);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.match(page.text, /swagger-ui/i);
    assert.doesNotMatch(
      page.text,
      /<(?:script|link)[^>]+(?:src|href)="(?:https?:)?\/\//i,
      'no asset from another host',
    );
    for (const [name, value] of Object.entries(fixed)) assert.equal(page.headers[name], value, name);
    const bundle = await t.call('GET', `${docsPrefix}/static/swagger-ui-bundle.js`);
    assert.equal(bundle.status, 200);
    for (const [name, value] of Object.entries(fixed)) assert.equal(bundle.headers[name], value, name);
    const initializer = await t.call('GET', `${docsPrefix}/static/swagger-initializer.js`);
    assert.equal(initializer.status, 200);
    assert.match(initializer.text, /\/api\/openapi\.json|\.\/json/);
  });
});
