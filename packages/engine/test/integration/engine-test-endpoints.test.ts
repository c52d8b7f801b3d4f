import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { post } from '@weir/test-helpers/engine';
import { multipartBody } from '@weir/test-helpers/multipart';
import { useTestNode } from '@weir/test-helpers/test-node';
import { badRequest, notFound } from '@weir/test-helpers/error-bodies';

/**
 * The test endpoints (spec: Tests; tasks.md; pdl.md) over real HTTPS: they run the engine's own
 * code on the stored configuration and write nothing.
 */

type Json = Record<string, unknown>;

describe('test endpoints: tasks, pipelines, rules, PDL and PDL syntax', () => {
  let admin: string;
  let user: string;

  /** POSTs text/plain, as the spec's clients do. */
  const postText = (path: string, body: string, token = user) =>
    t.call('POST', path, { token, body, contentType: 'text/plain' });
  /** The result, once checked to be 200. */
  const resultOf = async (path: string, body: string): Promise<unknown> => {
    const res = await postText(path, body);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    assert.deepEqual(Object.keys(res.body as Json), ['result']);
    return (res.body as { result: unknown }).result;
  };
  /** An event result, after checking that its `_time` is an integer near now; the rest is returned. */
  const timed = (result: unknown): Json => {
    const { _time, ...rest } = result as Json;
    assert.ok(Number.isInteger(_time), `_time is an integer: ${String(_time)}`);
    assert.ok(Math.abs((_time as number) - Date.now()) < 60_000, '_time is the time of the test (now)');
    return rest;
  };

  const t = useTestNode({ 'weir.engine.autostart': 'false' }, async () => {
    admin = await t.initAdmin();
    user = await t.createUser(admin, 'tess');
    await post(t, admin, '/api/rules', {
      id: 'te-root',
      name: 'Root',
      description: '',
      pdl: 'user="root" | eval risk=if(port>1024, "low", "high")',
      annotations: ['T1078'],
      enabled: true,
    });
    await post(t, admin, '/api/rules', {
      id: 'te-login',
      name: 'Login',
      description: '',
      pdl: 'action="login"',
      annotations: [],
      enabled: true,
    });
    await post(t, admin, '/api/tasks', { id: 1, name: 'kv', description: '', function: 'PARSE_KV', definition: {} });
    await post(t, admin, '/api/tasks', {
      id: 2,
      name: 'time',
      description: '',
      function: 'TIMESTAMP',
      definition: { field: 'ts', format: 'epoch' },
    });
    await post(t, admin, '/api/tasks', {
      id: 3,
      name: 'tag',
      description: '',
      function: 'EVAL',
      definition: {
        eval: [
          { action: 'rename', field: 'user', value: 'who' },
          { condition: 'port > 1024', action: 'set', field: 'high', value: 'true' },
          { action: 'remove', field: 'secret' },
        ],
      },
    });
    await post(t, admin, '/api/tasks', {
      id: 4,
      name: 'drop-bob',
      description: '',
      function: 'FILTER',
      definition: { type: 'pdl', value: 'user="bob"', action: 'drop' },
    });
    await post(t, admin, '/api/tasks', {
      id: 5,
      name: 'detect',
      description: '',
      function: 'APPLY_RULES',
      definition: { rules: ['te-root', 'te-login'] },
    });
    await post(t, admin, '/api/tasks', { id: 6, name: 'cef', description: '', function: 'PARSE_CEF', definition: {} });
    await post(t, admin, '/api/tasks', {
      id: 7,
      name: 'message',
      description: '',
      function: 'OUTPUT_FIELD',
      definition: { field: 'msg' },
    });
    await post(t, admin, '/api/pipelines', { id: 1, name: 'parse', description: '', tasks: [1] });
    await post(t, admin, '/api/pipelines', { id: 2, name: 'parse-and-time', description: '', tasks: [1, 2] });
    await post(t, admin, '/api/pipelines', { id: 3, name: 'detect', description: '', tasks: [1, 5] });
    await post(t, admin, '/api/pipelines', { id: 4, name: 'cef', description: '', tasks: [6] });
  });

  describe('POST /api/test/tasks/{id}', () => {
    test('text/plain event text → {result}: the event after the task, with _time', async () => {
      assert.deepEqual(timed(await resultOf('/api/test/tasks/1', 'user=bob port=443 msg="a b"')), {
        user: 'bob',
        port: 443,
        msg: 'a b',
        _raw: 'user=bob port=443 msg="a b"',
      });
      assert.deepEqual(timed(await resultOf('/api/test/tasks/3', '{"user":"bob","port":8080,"secret":"x"}')), {
        who: 'bob',
        port: 8080,
        high: true,
      });
      assert.deepEqual(await resultOf('/api/test/tasks/2', '{"ts":1700000000}'), {
        ts: 1700000000,
        _time: 1_700_000_000_000,
      });
      assert.equal(await resultOf('/api/test/tasks/7', '{"msg":"hello"}'), 'hello', 'OUTPUT_FIELD: text');
    });

    test('a dropped record is null; several alerts are an array', async () => {
      assert.equal(await resultOf('/api/test/tasks/4', '{"user":"bob"}'), null);
      // FILTER passes the record unchanged, as the engine does: the body's text, not a parsed event
      assert.equal(await resultOf('/api/test/tasks/4', '{"user":"amy"}'), '{"user":"amy"}');
      const alerts = (await resultOf('/api/test/tasks/5', '{"user":"root","action":"login","port":22}')) as Json[];
      assert.deepEqual(alerts.map(timed), [
        {
          user: 'root',
          action: 'login',
          port: 22,
          risk: 'high',
          _rule: { id: 'te-root', name: 'Root', annotations: ['T1078'] },
        },
        { user: 'root', action: 'login', port: 22, _rule: { id: 'te-login', name: 'Login', annotations: [] } },
      ]);
      assert.deepEqual(timed(await resultOf('/api/test/tasks/5', '{"user":"amy","action":"login"}')), {
        user: 'amy',
        action: 'login',
        _rule: { id: 'te-login', name: 'Login', annotations: [] },
      });
      assert.equal(await resultOf('/api/test/tasks/5', '{"user":"amy"}'), null);
    });

    test('an input the task cannot process: 400 naming the task and the error; a missing task: 404', async () => {
      const cef = await postText('/api/test/tasks/6', 'not cef at all');
      assert.equal(cef.status, 400);
      assert.deepEqual(cef.body, badRequest('Task cef failed on this input: not a CEF record: "CEF:" not found'));
      const notJson = await postText('/api/test/tasks/3', 'user=bob');
      assert.equal(notJson.status, 400);
      assert.match(
        (notJson.body as Json).debugMessage as string,
        /^Task tag failed on this input: the record is text that is not JSON \(.+\); this task needs an event$/,
      );
      const missing = await postText('/api/test/tasks/99', '{}');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, notFound('Requested task does not exist'));
    });
  });

  describe('POST /api/test/pipelines/{id}', () => {
    test('raw text → the result with the parsed fields, _raw and an integer _time', async () => {
      const text = 'user=alice, action=login, port=22';
      assert.deepEqual(timed(await resultOf('/api/test/pipelines/1', text)), {
        user: 'alice',
        action: 'login',
        port: 22,
        _raw: text,
      });
      assert.deepEqual(await resultOf('/api/test/pipelines/2', 'ts=1700000000.25 user=x'), {
        ts: 1700000000.25,
        user: 'x',
        _raw: 'ts=1700000000.25 user=x',
        _time: 1_700_000_000_250,
      });
    });

    test('a pipeline ending in APPLY_RULES: the alerts; no match: null', async () => {
      const alerts = (await resultOf('/api/test/pipelines/3', 'user=root action=login port=2222')) as Json[];
      assert.deepEqual(
        alerts.map((a) => (a._rule as Json).id),
        ['te-root', 'te-login'],
      );
      assert.equal(alerts[0]!.risk, 'low');
      assert.equal(alerts[0]!._raw, 'user=root action=login port=2222');
      assert.equal(await resultOf('/api/test/pipelines/3', 'user=amy action=read'), null);
    });

    test('a failing task: 400 naming it; a missing pipeline: 404 with the spec text', async () => {
      const res = await postText('/api/test/pipelines/4', 'plain');
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, badRequest('Task cef failed on this input: not a CEF record: "CEF:" not found'));
      const missing = await postText('/api/test/pipelines/42', 'user=a');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, notFound('Requested pipeline does not exist'));
    });
  });

  describe('POST /api/test/rules/{id}', () => {
    test('a JSON event → the rule output, or null', async () => {
      assert.deepEqual(await resultOf('/api/test/rules/te-root', '{"user":"root","port":8080}'), {
        user: 'root',
        port: 8080,
        risk: 'low',
      });
      assert.equal(await resultOf('/api/test/rules/te-root', '{"user":"bob","port":8080}'), null);
      const json = await t.call('POST', '/api/test/rules/te-login', { token: user, body: { action: 'login' } });
      assert.equal(json.status, 200);
      assert.deepEqual(json.body, { result: { action: 'login' } }, 'application/json is accepted too');
    });

    test('a missing rule: 404 with the spec text', async () => {
      const res = await postText('/api/test/rules/nope', '{}');
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, notFound('Requested rule does not exist'));
    });
  });

  describe('POST /api/test/pdl', () => {
    const pdl = (source: string, data: unknown) =>
      resultOf('/api/test/pdl', JSON.stringify({ pdl: source, data: JSON.stringify(data) }));

    test('one event → the output object or null (pdl.md worked examples)', async () => {
      const event = { user: 'bob', port: '443', tags: ['vpn', 'ext'], proc: { path: 'C:\\Tools\\nc.exe' } };
      assert.deepEqual(await pdl('port=443 AND tags ?= "vpn"', event), event);
      assert.deepEqual(
        await pdl('proc.path="*\\\\nc.exe" | eval risk=if(port>1024, "low", "high"), who=upper(user)', event),
        { ...event, risk: 'high', who: 'BOB' },
      );
      assert.equal(await pdl('user IN ["alice", "carol"]', event), null);
      assert.deepEqual(await pdl('rename proc.path AS image | fields keep image, user', event), {
        image: 'C:\\Tools\\nc.exe',
        user: 'bob',
      });
    });

    test('a JSON array of events → every emitted event, with correlation state kept across them', async () => {
      const t0 = 1_700_000_000_000;
      const events = [0, 1, 2, 3].map((i) => ({ user: 'alice', _time: t0 + i * 60_000 }));
      events.splice(1, 0, { user: 'bob', _time: t0 + 30_000 });
      const emitted = (await pdl(
        'event_count timespan=5m group_by user where _aggregation.value >= 3',
        events,
      )) as Json[];
      assert.equal(emitted.length, 1, 'reset=true: the 4th event starts a new count');
      assert.deepEqual(emitted[0], {
        user: 'alice',
        _time: t0 + 120_000,
        _aggregation: {
          function: 'event_count',
          eventCount: 3,
          value: 3,
          groupBy: { user: 'alice' },
          window: { start: t0 + 120_000 - 300_000, end: t0 + 120_000 },
        },
      });
      assert.deepEqual(
        await pdl('user="alice"', events.slice(0, 3)),
        [events[0], events[2]],
        'an array through a plain query: the matching events',
      );
      assert.deepEqual(await pdl('user="zed"', []), []);
    });

    test('the end of an array closes the open emit=close windows: a window-close rule needs no later event', async () => {
      const t0 = 1_700_000_000_000;
      const events = [
        { user: 'alice', action: 'login', _time: t0 },
        { user: 'bob', action: 'login', _time: t0 + 1_000 },
        { user: 'bob', action: 'login', _time: t0 + 2_000 },
        { user: 'bob', action: 'login', _time: t0 + 3_000 },
      ];
      const emitted = (await pdl(
        'action="login" | event_count timespan=5m group_by user emit=close where _aggregation.value < 3',
        events,
      )) as { user: string; _aggregation: { value: number } }[];
      assert.deepEqual(
        emitted.map((e) => [e.user, e._aggregation.value]),
        [['alice', 1]],
        'alice has fewer than 3 logins in her window; bob has 3',
      );
    });

    test('invalid PDL: 400 naming line and column; data that is not JSON: 400', async () => {
      const res = await postText('/api/test/pdl', JSON.stringify({ pdl: 'a = ', data: '{}' }));
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.body,
        badRequest("The PDL does not compile: line 1, column 5: expected a value after '=', found end of input"),
      );
      const data = await postText('/api/test/pdl', JSON.stringify({ pdl: 'a = 1', data: '{x' }));
      assert.equal(data.status, 400);
      assert.match((data.body as Json).debugMessage as string, /^data is not valid JSON: /);
    });
  });

  describe('POST /api/test/pdl/syntax', () => {
    const syntax = (source: string) => postText('/api/test/pdl/syntax', JSON.stringify({ pdl: source }));

    test('valid: {result: true}; invalid: {result: false, error: {message, line, column}}', async () => {
      const ok = await syntax('user="root" | eval risk=1');
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body, { result: true });
      const bad = await syntax('a = ');
      assert.equal(bad.status, 200);
      assert.deepEqual(bad.body, {
        result: false,
        error: { message: "line 1, column 5: expected a value after '=', found end of input", line: 1, column: 5 },
      });
      const second = await syntax('user="root"\n| eval x=(1');
      assert.deepEqual(second.body, {
        result: false,
        error: {
          message: "line 2, column 12: expected ')' or an operator (+ - * /), found end of input",
          line: 2,
          column: 12,
        },
      });
      const lookup = await syntax('a=1 | lookup nowhere ip OUTPUT risk');
      assert.deepEqual(lookup.body, {
        result: false,
        error: { message: "line 1, column 14: unknown lookup 'nowhere'", line: 1, column: 14 },
      });
    });
  });

  describe('the tests read the stored lookups as they are now', () => {
    const upload = (path: string, csv: string, id?: string) => {
      const file = { name: 'file', value: csv, filename: 'risk.csv', contentType: 'text/csv' };
      const { body, contentType } = multipartBody(id === undefined ? [file] : [{ name: 'id', value: id }, file]);
      return t.call('POST', path, { token: admin, body, contentType });
    };
    const run = (pdl: string) => postText('/api/test/pdl', JSON.stringify({ pdl, data: '{"ip": "10.0.0.1"}' }));

    test('a created, replaced and deleted lookup is seen by the next test request', async () => {
      const pdl = 'lookup te-risk ip OUTPUT risk';
      assert.equal((await upload('/api/lookups', 'ip,risk\n10.0.0.1,9\n', 'te-risk')).status, 201);
      const first = await run(pdl);
      assert.equal(first.status, 200, first.text);
      assert.equal(((first.body as { result: Json }).result as Json).risk, 9);
      assert.equal((await upload('/api/lookups/te-risk', 'ip,risk\n10.0.0.1,2\n')).status, 200);
      const second = await run(pdl);
      assert.equal(((second.body as { result: Json }).result as Json).risk, 2, 'the replaced rows');
      assert.equal((await t.call('DELETE', '/api/lookups/te-risk', { token: admin })).status, 204);
      const third = await run(pdl);
      assert.equal(third.status, 400, third.text);
      assert.match((third.body as Json).debugMessage as string, /unknown lookup 'te-risk'/);
    });
  });

  describe('rules with PDL that does not compile are refused', () => {
    const rule = { id: 'te-bad', name: 'Bad', description: '', pdl: 'a = 1', annotations: [], enabled: true };
    const violation = "pdl: line 1, column 5: expected a value after '=', found end of input";

    test('create, update and bulk: 400 naming line and column; nothing stored', async () => {
      const created = await t.call('POST', '/api/rules', { token: admin, body: { ...rule, pdl: 'a = ' } });
      assert.equal(created.status, 400);
      assert.deepEqual(created.body, { ...badRequest(`Invalid rule: ${violation}`), errors: [violation] });
      assert.equal((await t.call('GET', '/api/rules/te-bad', { token: admin })).status, 404);

      await post(t, admin, '/api/rules', rule);
      const updated = await t.call('PUT', '/api/rules/te-bad', {
        token: admin,
        body: { ...rule, pdl: 'a = 1 |\n  eval b=(' },
      });
      assert.equal(updated.status, 400);
      assert.deepEqual(updated.body, {
        ...badRequest("Invalid rule: pdl: line 2, column 11: expected a value after '(', found end of input"),
        errors: ["pdl: line 2, column 11: expected a value after '(', found end of input"],
      });
      assert.equal(
        ((await t.call('GET', '/api/rules/te-bad', { token: admin })).body as Json).pdl,
        'a = 1',
        'the stored rule is unchanged',
      );

      const bulk = await t.call('POST', '/api/bulk/rules', {
        token: admin,
        body: [
          { ...rule, pdl: 'a = 2' },
          { ...rule, id: 'te-bad2', name: 'Bad2', pdl: 'a = ' },
        ],
      });
      assert.equal(bulk.status, 400);
      assert.deepEqual(bulk.body, {
        ...badRequest('Unable to bulk update rules due to invalid input.'),
        errors: [{ index: 1, id: 'te-bad2', errors: [violation] }],
      });
      assert.equal(
        ((await t.call('GET', '/api/rules/te-bad', { token: admin })).body as Json).pdl,
        'a = 1',
        'bulk is atomic',
      );
    });
  });
});
