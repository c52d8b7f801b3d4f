import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useTestNode } from '@weir/test-helpers/test-node';

describe('tasks are compiled when saved', () => {
  let token: string;
  const t = useTestNode({}, async () => {
    token = await t.initAdmin();
  });

  const cases: [string, unknown, RegExp][] = [
    ['FILTER', { type: 'regex', value: '(unclosed', action: 'keep' }, /^definition\.value: /],
    [
      'PDL_EXPRESSION',
      { pdl: 'user=' },
      /^definition\.pdl: PDL line 1, column 6: expected a value after '=', found end of input$/,
    ],
    ['PDL_EXPRESSION', { pdl: 'lookup nosuch ip OUTPUT owner' }, /nosuch/],
    ['TIMESTAMP', { field: 'ts', format: 'yyyy-MM-dd ll' }, /^definition\.format: .*Unknown pattern letter: l/],
  ];
  for (const [fn, definition, expected] of cases) {
    test(`${fn} ${JSON.stringify(definition)} is refused with 400 naming the definition key`, async () => {
      const res = await t.call('POST', '/api/tasks', {
        token,
        body: { id: 7, name: 'bad', description: '', function: fn, definition },
      });
      assert.equal(res.status, 400, res.text);
      const body = res.body as { status: string; errors: string[] };
      assert.equal(body.status, 'BAD_REQUEST');
      assert.ok(
        body.errors.some((e) => expected.test(e)),
        JSON.stringify(body),
      );
      assert.equal((await t.call('GET', '/api/tasks/7', { token })).status, 404);
    });
  }
});
