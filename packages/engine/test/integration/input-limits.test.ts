import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useTestNode } from '@weir/test-helpers/test-node';

interface ErrorBody {
  status: string;
  debugMessage: string;
  errors?: unknown[];
}

/** The two failures of the first fuzz run (issue 13), fixed at their cause. */
describe('input limits: bounded validation errors and a nesting limit', () => {
  let admin = '';
  const t = useTestNode({ 'weir.engine.autostart': 'false' }, async () => {
    admin = await t.initAdmin();
  });

  test('a long invalid array gets at most 20 violations and a count, on every route that saw it', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => `x${i}`);
    const cases: [string, string, unknown][] = [
      [
        'PUT',
        '/api/topologies/1',
        {
          id: 1,
          name: 't',
          description: '',
          pipelines: many,
          enabled: true,
          group: 'default',
          input: { name: 'a' },
          output: [{ name: 'b' }],
        },
      ],
      [
        'POST',
        '/api/rules',
        { id: 'r', name: 'r', description: '', pdl: 'a=1', annotations: many.map((_, i) => i), enabled: true },
      ],
      ['POST', '/api/bulk/pipelines', [{ id: 1, name: 'p', description: '', tasks: many }]],
      ['POST', '/api/users', { username: 'u', password: 'long-enough-pw', roles: many.map(() => ({ name: 'x' })) }],
    ];
    for (const [method, path, body] of cases) {
      const res = await t.call(method, path, { token: admin, body });
      assert.equal(res.status, 400, `${method} ${path}`);
      const text = JSON.stringify(res.body);
      assert.ok(text.length < 20_000, `${method} ${path}: ${text.length} characters`);
      assert.match(text, /… and \d+ more"/, `${method} ${path}`);
    }
    assert.equal((await t.call('GET', '/api/init')).status, 200);
    assert.equal((await t.call('GET', '/api/rules/r', { token: admin })).status, 404, 'nothing stored');
  });

  test('a body nested 10,000 deep is a 400 naming the limit, not a 500; 100 levels are accepted', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const path of ['/api/test/tasks/1', '/api/rules', '/api/login']) {
      const res = await t.call('POST', path, { token: admin, body: deep, contentType: 'application/json' });
      assert.equal(res.status, 400, path);
      assert.equal(
        (res.body as ErrorBody).debugMessage,
        'The request body nests arrays and objects more than 100 levels deep; at most 100 are accepted.',
      );
    }
    const brackets = `{"a":"${'['.repeat(500)}"}`;
    const inString = await t.call('POST', '/api/rules', {
      token: admin,
      body: brackets,
      contentType: 'application/json',
    });
    assert.notEqual(
      (inString.body as ErrorBody).debugMessage,
      'The request body nests arrays and objects more than 100 levels deep; at most 100 are accepted.',
      'brackets in strings do not count',
    );
    const hundred = `${'['.repeat(99)}{"x":1}${']'.repeat(99)}`;
    const ok = await t.call('POST', '/api/test/tasks/1', {
      token: admin,
      body: hundred,
      contentType: 'application/json',
    });
    assert.ok(ok.status < 500 && !/levels deep/.test(ok.text), ok.text);
  });
});
