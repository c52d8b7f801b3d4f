import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { storeModes, storeSettings } from '../helpers/store-modes.ts';
import { useTestNode } from '@weir/test-helpers/test-node';
import { badRequest, notFound } from '@weir/test-helpers/error-bodies';

const S = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const L = 'org.apache.kafka.common.serialization.Serdes$LongSerde';

interface KindCase {
  readonly path: string;
  readonly one: string;
  readonly many: string;
  readonly id: string;
  readonly missingId: string;
  /** A valid record in the latest form (what the API answers). */
  readonly record: Record<string, unknown>;
  /** A second valid record with another id and name. */
  readonly other: Record<string, unknown>;
  /** An invalid record and the violations the API must list. */
  readonly invalid: Record<string, unknown>;
  readonly violations: string[];
}

const cases: KindCase[] = [
  {
    path: 'tasks',
    one: 'task',
    many: 'tasks',
    id: '1',
    missingId: '999',
    record: {
      id: 1,
      name: 'timestamp',
      description: 'parse time',
      function: 'TIMESTAMP',
      definition: { field: 'time', format: "yyyy-MM-dd'T'HH:mm:ss" },
    },
    other: { id: 2, name: 'kv', description: '', function: 'PARSE_KV', definition: {} },
    invalid: { id: 3, name: 'bad', function: 'TIMESTAMP', definition: { format: 5, extra: true } },
    violations: [
      'definition.field: is required',
      'definition.extra: is not an accepted field; accepted: field, format, addNewField, timeFieldName',
      'definition.format: must be string',
    ],
  },
  {
    path: 'pipelines',
    one: 'pipeline',
    many: 'pipelines',
    id: '1',
    missingId: '999',
    record: { id: 1, name: 'main', description: 'd', tasks: [1, 2] },
    other: { id: 2, name: 'second', description: '', tasks: [] },
    invalid: { id: 3, name: '', tasks: ['one'] },
    violations: ['name: must NOT have fewer than 1 characters', 'tasks[0]: must be integer'],
  },
  {
    path: 'topologies',
    one: 'topology',
    many: 'topologies',
    id: '1',
    missingId: '999',
    record: {
      id: 1,
      name: 'topo',
      description: '',
      pipelines: [1],
      enabled: true,
      group: 'default',
      input: { name: 'in', keySerde: S, valueSerde: S },
      output: [{ name: 'out', keySerde: S, valueSerde: L }],
    },
    other: {
      id: 2,
      name: 'topo2',
      description: '',
      pipelines: [],
      enabled: false,
      group: 'edge',
      input: { name: 'in2', keySerde: S, valueSerde: S },
      output: [],
    },
    invalid: {
      id: 3,
      name: 'bad',
      pipelines: [1],
      input: { name: 'in', keySerde: 'java.lang.String' },
      output: [{ name: 'bad topic!' }],
    },
    violations: [
      `input.keySerde: must be one of ${['Float', 'ByteArray', 'Bytes', 'ByteBuffer', 'Double', 'Integer', 'Long', 'String', 'UUID'].map((t) => `org.apache.kafka.common.serialization.Serdes$${t}Serde`).join(', ')}`,
      'output[0].name: "bad topic!" does not match ^[A-Za-z0-9._-]{1,249}$',
    ],
  },
  {
    path: 'rules',
    one: 'rule',
    many: 'rules',
    id: 'rule-1',
    missingId: 'no-such-rule',
    record: {
      id: 'rule-1',
      name: 'Suspicious shell',
      description: '',
      pdl: 'process = "sh"',
      annotations: ['T1059'],
      enabled: true,
    },
    other: { id: 'rule-2', name: 'Second', description: 'x', pdl: 'a = 1', annotations: [], enabled: false },
    invalid: { id: 'rule-3', name: 'bad', enabled: 'yes' },
    violations: ['pdl: is required', 'enabled: must be boolean'],
  },
];

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

for (const mode of storeModes) {
  describe(`configuration resources (${mode} store)`, () => {
    let admin: string;
    let user: string;
    const t = useTestNode(storeSettings(mode), async () => {
      admin = await t.initAdmin();
      user = await t.createUser(admin, 'uma');
    });

    for (const c of cases) {
      test(`${c.many}: every route, status and debugMessage`, async () => {
        const base = `/api/${c.path}`;
        assert.deepEqual((await t.call('GET', base, { token: admin })).body, []);

        const created = await t.call('POST', base, { token: admin, body: c.record });
        assert.equal(created.status, 201, created.text);
        assert.equal(created.headers.location, base);
        assert.match(String(created.headers['content-type']), /^application\/json/);
        assert.deepEqual(created.body, c.record);

        const again = await t.call('POST', base, { token: admin, body: c.record });
        assert.equal(again.status, 409);
        assert.deepEqual(again.body, {
          status: 'CONFLICT',
          message: 'Resource already exists',
          debugMessage: `${cap(c.one)} already exists, can not create a new one. Please use update (PUT) endpoint.`,
        });

        // Names need not be unique (the original stored both; docs/api.md): the id tells them apart.
        const sameName = await t.call('POST', base, { token: admin, body: { ...c.other, name: c.record.name } });
        assert.equal(sameName.status, 201, sameName.text);
        assert.deepEqual((await t.call('GET', `${base}/${String(c.other.id)}`, { token: admin })).body, {
          ...c.other,
          name: c.record.name,
        });
        assert.equal((await t.call('DELETE', `${base}/${String(c.other.id)}`, { token: admin })).status, 204);

        const invalid = await t.call('POST', base, { token: admin, body: c.invalid });
        assert.equal(invalid.status, 400);
        const invalidBody = invalid.body as { debugMessage: string; errors: string[] };
        assert.deepEqual([...invalidBody.errors].sort(), [...c.violations].sort());
        assert.deepEqual(
          { ...invalidBody, errors: undefined },
          { ...badRequest(`Invalid ${c.one}: ${invalidBody.errors.join('; ')}`), errors: undefined },
        );

        assert.deepEqual((await t.call('GET', base, { token: user })).body, [c.record], 'a user may read');
        const one = await t.call('GET', `${base}/${c.id}`, { token: user });
        assert.equal(one.status, 200);
        assert.deepEqual(one.body, c.record);
        const missing = await t.call('GET', `${base}/${c.missingId}`, { token: admin });
        assert.equal(missing.status, 404);
        assert.deepEqual(missing.body, notFound(`Requested ${c.one} does not exist`));

        const changed: Record<string, unknown> = { ...c.record, name: `${String(c.record.name)} v2` };
        const updated = await t.call('PUT', `${base}/${c.id}`, { token: admin, body: changed });
        assert.equal(updated.status, 200, updated.text);
        assert.deepEqual(updated.body, changed);
        assert.deepEqual((await t.call('GET', `${base}/${c.id}`, { token: admin })).body, changed);

        const { id: _id, ...withoutId } = changed;
        const noBodyId = await t.call('PUT', `${base}/${c.id}`, { token: admin, body: withoutId });
        assert.equal(noBodyId.status, 200, 'a body without id takes the path id');
        assert.deepEqual(noBodyId.body, changed);

        const mismatch = await t.call('PUT', `${base}/${c.id}`, { token: admin, body: { ...changed, id: c.other.id } });
        assert.equal(mismatch.status, 400);
        assert.deepEqual(
          mismatch.body,
          badRequest(
            `The id in the path (${c.id}) differs from the id in the body (${String(c.other.id)}); the id of a ${c.one} cannot be changed. Leave the id out of the body or make them equal.`,
          ),
        );

        const updateMissing = await t.call('PUT', `${base}/${c.missingId}`, {
          token: admin,
          body: { ...c.other, id: c.path === 'rules' ? c.missingId : Number(c.missingId) },
        });
        assert.equal(updateMissing.status, 404);
        assert.deepEqual(
          updateMissing.body,
          notFound(`${cap(c.one)} to update does not exist. Please use create (POST) endpoint.`),
        );

        const updateInvalid = await t.call('PUT', `${base}/${c.id}`, {
          token: admin,
          body: { ...c.invalid, id: c.record.id },
        });
        assert.equal(updateInvalid.status, 400);

        assert.equal((await t.call('POST', base, { token: user, body: c.other })).status, 403, 'writes are admin only');
        assert.equal((await t.call('PUT', `${base}/${c.id}`, { token: user, body: changed })).status, 403);
        assert.equal((await t.call('DELETE', `${base}/${c.id}`, { token: user })).status, 403);
        assert.equal((await t.call('POST', `/api/bulk/${c.path}`, { token: user, body: [c.other] })).status, 403);

        const deleted = await t.call('DELETE', `${base}/${c.id}`, { token: admin });
        assert.equal(deleted.status, 204);
        assert.equal(deleted.text, '');
        const deleteAgain = await t.call('DELETE', `${base}/${c.id}`, { token: admin });
        assert.equal(deleteAgain.status, 404);
        assert.deepEqual(deleteAgain.body, notFound(`${cap(c.one)} to delete does not exist.`));
        assert.deepEqual((await t.call('GET', base, { token: admin })).body, []);
      });

      test(`${c.many}: bulk creates and updates atomically, and stores nothing when one element is invalid`, async () => {
        const base = `/api/${c.path}`;
        const bulk = `/api/bulk/${c.path}`;
        assert.equal((await t.call('POST', base, { token: admin, body: c.record })).status, 201);

        const refused = await t.call('POST', bulk, {
          token: admin,
          body: [{ ...c.record, name: 'renamed' }, c.other, c.invalid],
        });
        assert.equal(refused.status, 400);
        assert.deepEqual(refused.body, {
          ...badRequest(`Unable to bulk update ${c.many} due to invalid input.`),
          errors: [
            {
              index: 2,
              id: c.invalid.id,
              errors: (refused.body as { errors: { errors: string[] }[] }).errors[0]!.errors,
            },
          ],
        });
        assert.deepEqual(
          [...(refused.body as { errors: { errors: string[] }[] }).errors[0]!.errors].sort(),
          [...c.violations].sort(),
        );
        assert.deepEqual((await t.call('GET', base, { token: admin })).body, [c.record], 'nothing was stored');

        const duplicate = await t.call('POST', bulk, { token: admin, body: [c.other, c.other] });
        assert.equal(duplicate.status, 400);
        assert.deepEqual((duplicate.body as { errors: unknown }).errors, [
          {
            index: 1,
            id: c.other.id,
            errors: [
              `id: ${String(c.other.id)} is also the id of element 0; each id may appear once`,
              `name: '${String(c.other.name)}' is also the name of the ${c.one} with id ${String(c.other.id)}; ${c.one} names are unique`,
            ].slice(0, 1),
          },
        ]);

        const notArray = await t.call('POST', bulk, { token: admin, body: c.record });
        assert.equal(notArray.status, 400);
        assert.deepEqual(notArray.body, {
          ...badRequest(`Unable to bulk update ${c.many} due to invalid input.`),
          errors: [{ index: -1, errors: [`(body): must be a JSON array of ${c.many}`] }],
        });

        const renamed = { ...c.record, name: 'renamed' };
        const ok = await t.call('POST', bulk, { token: admin, body: [renamed, c.other] });
        assert.equal(ok.status, 200, ok.text);
        assert.deepEqual(ok.body, [renamed, c.other], 'the answer lists the submitted records as stored');
        const all = (await t.call('GET', base, { token: admin })).body as Record<string, unknown>[];
        assert.deepEqual(all, [renamed, c.other]);

        assert.deepEqual((await t.call('POST', bulk, { token: admin, body: [] })).body, []);
        for (const r of all)
          assert.equal((await t.call('DELETE', `${base}/${String(r.id)}`, { token: admin })).status, 204);
      });
    }

    test('ids must match their kind: integer paths for tasks, pipelines and topologies', async () => {
      const res = await t.call('GET', '/api/tasks/abc', { token: admin });
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.body,
        badRequest(`'abc' is not a valid task id; accepted: an integer from 0 to ${Number.MAX_SAFE_INTEGER}.`),
      );
      const stringId = await t.call('POST', '/api/pipelines', {
        token: admin,
        body: { id: 'seven', name: 'p', tasks: [] },
      });
      assert.equal(stringId.status, 400);
      assert.deepEqual((stringId.body as { errors: string[] }).errors, ['id: must be integer']);
      // The original's rule ids were integers: stored and answered as their decimal text (docs/api.md).
      const numericRuleId = await t.call('POST', '/api/rules', {
        token: admin,
        body: { id: 7, name: 'r', pdl: 'a = 1' },
      });
      assert.equal(numericRuleId.status, 201, numericRuleId.text);
      assert.deepEqual(numericRuleId.body, { id: '7', name: 'r', pdl: 'a = 1', enabled: true });
      assert.deepEqual((await t.call('GET', '/api/rules/7', { token: admin })).body, {
        id: '7',
        name: 'r',
        pdl: 'a = 1',
        enabled: true,
      });
      assert.equal((await t.call('DELETE', '/api/rules/7', { token: admin })).status, 204);
      const fractionRuleId = await t.call('POST', '/api/rules', {
        token: admin,
        body: { id: 7.5, name: 'r', pdl: 'a = 1' },
      });
      assert.deepEqual((fractionRuleId.body as { errors: string[] }).errors, ['id: must be string']);
      const notObject = await t.call('POST', '/api/rules', { token: admin, body: [1] });
      assert.deepEqual(notObject.body, {
        ...badRequest('Invalid rule: (record): must be a JSON object (a rule)'),
        errors: ['(record): must be a JSON object (a rule)'],
      });
    });

    test('defaults: topology group `default` and enabled true, string serdes; rule enabled true', async () => {
      const res = await t.call('POST', '/api/topologies', {
        token: admin,
        body: {
          id: 10,
          name: 'defaults',
          pipelines: [],
          input: { name: 'in' },
          output: [{ name: 'out', valueSerde: L }],
        },
      });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body, {
        id: 10,
        name: 'defaults',
        pipelines: [],
        enabled: true,
        group: 'default',
        input: { name: 'in', keySerde: S, valueSerde: S },
        output: [{ name: 'out', keySerde: S, valueSerde: L }],
      });
      const rule = await t.call('POST', '/api/rules', {
        token: admin,
        body: { id: 'defaults', name: 'defaults', pdl: 'a = 1' },
      });
      assert.deepEqual(rule.body, { id: 'defaults', name: 'defaults', pdl: 'a = 1', enabled: true });
      await t.call('DELETE', '/api/topologies/10', { token: admin });
      await t.call('DELETE', '/api/rules/defaults', { token: admin });
    });

    test('earlier forms: topology input/output as strings come back as objects; a rule keeps its datamodel', async () => {
      const earlier = {
        id: 20,
        name: 'legacy',
        description: '',
        pipelines: [1, 2],
        input: 'raw-events',
        output: ['parsed', 'alerts'],
        group: 'default',
        enabled: true,
      };
      const latest = {
        ...earlier,
        input: { name: 'raw-events', keySerde: S, valueSerde: S },
        output: [
          { name: 'parsed', keySerde: S, valueSerde: S },
          { name: 'alerts', keySerde: S, valueSerde: S },
        ],
      };
      const created = await t.call('POST', '/api/topologies', { token: admin, body: earlier });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body, latest);
      assert.deepEqual((await t.call('GET', '/api/topologies/20', { token: admin })).body, latest);
      const put = await t.call('PUT', '/api/topologies/20', { token: admin, body: { ...earlier, output: ['only'] } });
      assert.deepEqual((put.body as { output: unknown }).output, [{ name: 'only', keySerde: S, valueSerde: S }]);
      const bulk = await t.call('POST', '/api/bulk/topologies', {
        token: admin,
        body: [{ ...earlier, id: 21, name: 'legacy2' }],
      });
      assert.deepEqual(bulk.body, [{ ...latest, id: 21, name: 'legacy2' }]);

      const rule = {
        id: 'legacy-rule',
        name: 'legacy rule',
        description: '',
        pdl: 'a = 1',
        annotations: [],
        enabled: true,
        datamodel: 'process',
      };
      const createdRule = await t.call('POST', '/api/rules', { token: admin, body: rule });
      assert.equal(createdRule.status, 201, createdRule.text);
      assert.deepEqual((await t.call('GET', '/api/rules/legacy-rule', { token: admin })).body, rule);
      for (const p of ['/api/topologies/20', '/api/topologies/21', '/api/rules/legacy-rule'])
        await t.call('DELETE', p, { token: admin });
    });

    test('task definitions: every function validates its own parameters; `delimeter` is read as `delimiter`', async () => {
      const valid: [string, object][] = [
        ['TIMESTAMP', { field: 'ts', format: 'epoch', addNewField: false, timeFieldName: '_t' }],
        ['PARSE_KV', { delimeter: ':', keepRaw: false }],
        ['PARSE_CSV', { fieldNames: 'a,b,c', delimiter: ';', rawFieldName: 'raw' }],
        ['PARSE_CEF', { keepRaw: true }],
        ['EXTRACT', { regex: '(?<user>\\w+)', field: 'msg' }],
        ['FILTER', { type: 'regex', value: 'error', action: 'drop' }],
        [
          'EVAL',
          {
            eval: [
              { condition: '', action: 'rename', field: 'a', value: 'b' },
              { action: 'remove', field: 'c' },
            ],
          },
        ],
        ['PDL_EXPRESSION', { pdl: 'a = 1 | eval b = 2' }],
        ['APPLY_RULES', { rules: ['rule-1'], matchAll: false }],
        ['OUTPUT_FIELD', { field: 'message' }],
      ];
      const tasks = valid.map(([fn, definition], i) => ({ id: 100 + i, name: `t${i}`, function: fn, definition }));
      const res = await t.call('POST', '/api/bulk/tasks', { token: admin, body: tasks });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual((res.body as { definition: object }[])[1]!.definition, { delimiter: ':', keepRaw: false });

      const invalid = await t.call('POST', '/api/tasks', {
        token: admin,
        body: {
          id: 200,
          name: 'bad eval',
          function: 'EVAL',
          definition: {
            eval: [
              { action: 'set', field: 'x' },
              { action: 'explode', field: 'y' },
            ],
          },
        },
      });
      assert.deepEqual((invalid.body as { errors: string[] }).errors, [
        'definition.eval[0].value: is required',
        'definition.eval[1].action: must be one of rename, set, remove',
      ]);
      const unknownFn = await t.call('POST', '/api/tasks', {
        token: admin,
        body: { id: 201, name: 'x', function: 'NOPE', definition: {} },
      });
      assert.deepEqual((unknownFn.body as { errors: string[] }).errors, [
        'function: must be one of TIMESTAMP, PARSE_KV, PARSE_CSV, PARSE_CEF, EXTRACT, FILTER, EVAL, PDL_EXPRESSION, APPLY_RULES, OUTPUT_FIELD',
      ]);
      for (const task of tasks) await t.call('DELETE', `/api/tasks/${task.id}`, { token: admin });
    });

    test('a restart keeps every resource', async () => {
      for (const c of cases)
        assert.equal((await t.call('POST', `/api/${c.path}`, { token: admin, body: c.record })).status, 201);
      await t.restart();
      const token = (await t.login('admin', 'admin-pw')).access_token;
      for (const c of cases)
        assert.deepEqual((await t.call('GET', `/api/${c.path}`, { token })).body, [c.record], c.many);
      admin = token;
      user = (await t.login('uma', 'uma-pw')).access_token;
      for (const c of cases) await t.call('DELETE', `/api/${c.path}/${c.id}`, { token: admin });
    });
  });
}
