import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isolatedEngine, post, waitForRunning } from '@weir/test-helpers/engine';
import { consume, createTopics, header, json, produce, text, type RawMessage } from '@weir/test-helpers/kafka';
import { kcatValues } from '@weir/test-helpers/kcat';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { useTestNode } from '@weir/test-helpers/test-node';

/**
 * Dead letters (tasks.md; architecture: Stream runtime): a record a task cannot process goes to
 * `<input>-dlq` with its original key and value bytes and headers naming the topology, the task,
 * the error and the source; the records after it go on. A topology that cannot run (a missing
 * pipeline) sends its records there too, with the reason.
 */
describe('the stream engine: dead-letter topics', () => {
  let token: string;
  const settings = isolatedEngine('dlq');
  const cefIn = uniqueTopic('dlq-cef-in');
  const cefOut = uniqueTopic('dlq-cef-out');
  const rulesIn = uniqueTopic('dlq-rules-in');
  const rulesOut = uniqueTopic('dlq-rules-out');
  const missingIn = uniqueTopic('dlq-missing-in');
  const missingOut = uniqueTopic('dlq-missing-out');
  const siblingOut = uniqueTopic('dlq-sibling-out');
  const fieldIn = uniqueTopic('dlq-field-in');
  const fieldOut = uniqueTopic('dlq-field-out');
  const stageIn = uniqueTopic('dlq-stage-in');
  const stageOut = uniqueTopic('dlq-stage-out');

  const headersOf = (m: RawMessage) => ({
    topology: header(m, 'weir.topology'),
    task: header(m, 'weir.task'),
    error: header(m, 'weir.error'),
    source: header(m, 'weir.source'),
  });

  const t = useTestNode(settings, async () => {
    token = await t.initAdmin();
    await createTopics([
      cefIn,
      cefOut,
      rulesIn,
      rulesOut,
      missingIn,
      missingOut,
      siblingOut,
      fieldIn,
      fieldOut,
      stageIn,
      stageOut,
    ]);
    const topology = (id: number, name: string, pipelines: number[], input: string, output: string) =>
      post(t, token, '/api/topologies', {
        id,
        name,
        description: '',
        pipelines,
        enabled: true,
        group: 'default',
        input: { name: input },
        output: [{ name: output }],
      });
    await post(t, token, '/api/rules', {
      id: 'dlq-any',
      name: 'Any user',
      description: '',
      pdl: 'user="*"',
      annotations: [],
      enabled: true,
    });
    await post(t, token, '/api/tasks', { id: 1, name: 'cef', description: '', function: 'PARSE_CEF', definition: {} });
    await post(t, token, '/api/tasks', {
      id: 2,
      name: 'rules',
      description: '',
      function: 'APPLY_RULES',
      definition: { rules: ['dlq-any'] },
    });
    await post(t, token, '/api/tasks', {
      id: 3,
      name: 'pass',
      description: '',
      function: 'EVAL',
      definition: { eval: [{ action: 'set', field: 'ok', value: 'true' }] },
    });
    await post(t, token, '/api/tasks', {
      id: 4,
      name: 'message',
      description: '',
      function: 'OUTPUT_FIELD',
      definition: { field: 'msg' },
    });
    // a correlation stage (its events go through a repartition topic), then a task that fails on some of them
    await post(t, token, '/api/tasks', {
      id: 5,
      name: 'count',
      description: '',
      function: 'PDL_EXPRESSION',
      definition: { pdl: 'event_count timespan=1h group_by user' },
    });
    await post(t, token, '/api/tasks', {
      id: 6,
      name: 'name',
      description: '',
      function: 'OUTPUT_FIELD',
      definition: { field: 'user.name' },
    });
    await post(t, token, '/api/pipelines', { id: 1, name: 'cef', description: '', tasks: [1] });
    await post(t, token, '/api/pipelines', { id: 2, name: 'rules', description: '', tasks: [2] });
    await post(t, token, '/api/pipelines', { id: 3, name: 'pass', description: '', tasks: [3] });
    await post(t, token, '/api/pipelines', { id: 4, name: 'message', description: '', tasks: [3, 4] });
    await post(t, token, '/api/pipelines', { id: 5, name: 'stage', description: '', tasks: [5, 6] });
    await topology(1, 'cef-topology', [1], cefIn, cefOut);
    await topology(2, 'rules-topology', [2], rulesIn, rulesOut);
    await topology(3, 'missing-topology', [3, 99], missingIn, missingOut);
    await topology(4, 'sibling-topology', [3], missingIn, siblingOut);
    await topology(5, 'field-topology', [4], fieldIn, fieldOut);
    await topology(6, 'stage-topology', [5], stageIn, stageOut);
    await waitForRunning(t, token);
  });

  test('PARSE_CEF on text that is not CEF: the original bytes and key on <input>-dlq with headers; the next records go on', async () => {
    const notUtf8 = Buffer.from([0xff, 0xfe, 0x00, 0x68, 0x69]);
    await produce(cefIn, ['CEF:0|V|P|1|s|n|3|a=1', notUtf8, 'plain text', 'CEF:0|V|P|1|s|n|3|a=2'], (i) => `key-${i}`);
    const out = await consume(cefOut, 2, 30_000);
    assert.deepEqual(
      out.map((m) => json(m).a),
      ['1', '2'],
      'the good records before and after the bad ones',
    );
    assert.deepEqual(
      out.map((m) => m.key.toString()),
      ['key-0', 'key-3'],
    );
    const dead = await consume(`${cefIn}-dlq`, 2, 30_000);
    assert.equal(dead.length, 2);
    assert.deepEqual(dead[0]!.value, notUtf8, 'the very bytes, not a re-encoding');
    assert.equal(dead[0]!.key.toString(), 'key-1');
    assert.equal(text(dead[1]!), 'plain text');
    assert.equal(dead[1]!.key.toString(), 'key-2');
    assert.deepEqual(headersOf(dead[0]!), {
      topology: 'cef-topology',
      task: 'cef',
      error: 'PARSE_CEF: not a CEF record: "CEF:" not found',
      source: `${cefIn}/0/1`,
    });
    assert.deepEqual(headersOf(dead[1]!), {
      topology: 'cef-topology',
      task: 'cef',
      error: 'PARSE_CEF: not a CEF record: "CEF:" not found',
      source: `${cefIn}/0/2`,
    });
  });

  test('APPLY_RULES on text that is not JSON, and on a JSON array: dead letters naming the error; alerts go on', async () => {
    await produce(rulesIn, ['user=alice', '{"user":"bob"}', '[1,2]', '{"user":"carol"}']);
    const out = await consume(rulesOut, 2, 30_000);
    assert.deepEqual(
      out.map((m) => json(m).user),
      ['bob', 'carol'],
    );
    const dead = await consume(`${rulesIn}-dlq`, 2, 30_000);
    assert.deepEqual(dead.map(text), ['user=alice', '[1,2]']);
    const h = dead.map(headersOf);
    assert.equal(h[0]!.topology, 'rules-topology');
    assert.equal(h[0]!.task, 'rules');
    assert.match(h[0]!.error!, /^APPLY_RULES: the record is text that is not JSON \(.+\); this task needs an event$/);
    assert.equal(h[1]!.error, 'APPLY_RULES: the record is JSON array, not an object; this task needs an event');
    assert.deepEqual(
      h.map((x) => x.source),
      [`${rulesIn}/0/0`, `${rulesIn}/0/2`],
    );
  });

  test('a topology whose pipeline does not exist sends every record to the DLQ with the reason; a sibling topology on the same input runs', async () => {
    await produce(missingIn, ['{"n":1}', '{"n":2}'], (i) => `k${i}`);
    const sibling = await consume(siblingOut, 2, 30_000);
    assert.deepEqual(
      sibling.map(json).map(({ _time, ...e }) => e),
      [
        { n: 1, ok: true },
        { n: 2, ok: true },
      ],
    );
    const dead = await consume(`${missingIn}-dlq`, 2, 30_000);
    assert.deepEqual(dead.map(text), ['{"n":1}', '{"n":2}']);
    assert.deepEqual(
      dead.map((m) => m.key.toString()),
      ['k0', 'k1'],
    );
    assert.deepEqual(
      dead.map(headersOf),
      [0, 1].map((offset) => ({
        topology: 'missing-topology',
        task: 'topology',
        error: 'pipeline 99 does not exist',
        source: `${missingIn}/0/${offset}`,
      })),
    );
    assert.deepEqual(await consume(missingOut, 1, 2_000), [], 'nothing on the output of the broken topology');
  });

  test('a task error after another task: the original record (not the partly processed event) on the DLQ', async () => {
    await produce(fieldIn, ['{"msg":"hello"}', '{"other":1}', '{"msg":{"a":1}}']);
    const out = await consume(fieldOut, 2, 30_000);
    assert.deepEqual(out.map(text), ['hello', '{"a":1}']);
    const dead = await consume(`${fieldIn}-dlq`, 1, 30_000);
    assert.deepEqual(dead.map(text), ['{"other":1}']);
    assert.deepEqual(headersOf(dead[0]!), {
      topology: 'field-topology',
      task: 'message',
      error: 'OUTPUT_FIELD: field "msg" is missing; OUTPUT_FIELD needs it to build the text',
      source: `${fieldIn}/0/1`,
    });
  });

  test('a task error after a correlation stage: the original input record (key, value bytes, source), not the repartition record', async () => {
    const bad = '{ "user" : "bob",  "_time": 1700000000001 }'; // spacing a re-encoding would not keep
    await produce(
      stageIn,
      ['{"user":{"name":"ann"},"_time":1700000000000}', bad, '{"user":{"name":"cy"},"_time":1700000000002}'],
      (i) => `k${i}`,
    );
    const out = await consume(stageOut, 2, 30_000);
    assert.deepEqual(out.map(text), ['ann', 'cy']);
    const dead = await consume(`${stageIn}-dlq`, 1, 30_000);
    assert.equal(dead.length, 1);
    assert.deepEqual(dead[0]!.value, Buffer.from(bad), "the input record's very bytes");
    assert.equal(dead[0]!.key.toString(), 'k1');
    assert.deepEqual(headersOf(dead[0]!), {
      topology: 'stage-topology',
      task: 'name',
      error: 'OUTPUT_FIELD: field "user.name" is missing; OUTPUT_FIELD needs it to build the text',
      source: `${stageIn}/0/1`,
    });
    assert.deepEqual(await kcatValues(`${stageIn}-dlq`), [bad], 'as another client reads it');
  });
});
