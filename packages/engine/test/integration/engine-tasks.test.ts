import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isolatedEngine, waitForRunning } from '@weir/test-helpers/engine';
import { consume, createTopics, json, produce, text, type RawMessage } from '@weir/test-helpers/kafka';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { useTestNode } from '@weir/test-helpers/test-node';

/**
 * Each of the ten task functions (tasks.md) through a running topology on the real broker: one
 * node, one topology per case on its own input and output topics, configured in one bulk write.
 * Every case ends with a record that reaches the output, so reading up to it shows exactly what
 * the topology wrote (the input has one partition: outputs come in input order).
 */

type Json = Record<string, unknown>;

interface Case {
  readonly label: string;
  readonly tasks: { function: string; definition: Json }[];
  readonly inputs: string[];
  readonly input: string;
  readonly output: string;
}

const cases = new Map<string, Case>();
let nextTaskId = 1;
let nextId = 1;

function defineCase(label: string, tasks: Case['tasks'], inputs: (string | Json)[]): Case {
  const c: Case = {
    label,
    tasks,
    inputs: inputs.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
    input: uniqueTopic(`tasks-${label}-in`),
    output: uniqueTopic(`tasks-${label}-out`),
  };
  cases.set(label, c);
  return c;
}

/** The event without `_time`, after checking that `_time` is the output record's Kafka timestamp. */
function untimed(m: RawMessage): Json {
  const event = json(m);
  assert.equal(event._time, Number(m.timestamp), `_time of ${m.value.toString()} is the record timestamp`);
  const { _time, ...rest } = event;
  return rest;
}

const T_JAVA = Date.UTC(2024, 0, 2, 2, 4, 5, 678);
const T_STRF = Date.UTC(2023, 3, 5, 6, 7, 8);
const cef =
  'CEF:0|Security|threatmanager|1.0|100|worm successfully stopped|10|src=10.0.0.1 dst=2.1.2.2 spt=1232 msg=a\\=b c\\\\d';
const syslogCef = '<134>Sep 19 08:26:10 host01 CEF:1|V|P|2|s|n|Low|act=allow';

defineCase(
  'ts-java',
  [{ function: 'TIMESTAMP', definition: { field: 'ts' } }],
  [{ ts: '2024-01-02T03:04:05.678+0100', n: 1 }, { ts: 'not a time', n: 2 }, { n: 3 }],
);
defineCase(
  'ts-strftime',
  [{ function: 'TIMESTAMP', definition: { field: 'when', format: '%Y-%m-%d %H:%M:%S', timeFieldName: 'at' } }],
  [{ when: '2023-04-05 06:07:08' }],
);
defineCase(
  'ts-epoch-nofield',
  [{ function: 'TIMESTAMP', definition: { field: 'e', format: 'epoch', addNewField: false } }],
  [{ e: 1700000000 }, { e: '1700000000.5' }],
);
defineCase('kv', [{ function: 'PARSE_KV', definition: {} }], ['user=alice, action="log in" port=443 id=007', 'k = v']);
defineCase(
  'kv-colon',
  [{ function: 'PARSE_KV', definition: { delimiter: ':', keepRaw: false } }],
  ['user:bob count:3'],
);
defineCase(
  'csv',
  [{ function: 'PARSE_CSV', definition: { fieldNames: 'year, user, action, extra' } }],
  ['2024,"Smith, J", login', 'a;b'],
);
defineCase(
  'csv-semicolon',
  [{ function: 'PARSE_CSV', definition: { fieldNames: 'a,b', delimiter: ';', rawFieldName: 'line' } }],
  ['1;x;ignored'],
);
defineCase('cef', [{ function: 'PARSE_CEF', definition: {} }], [cef, syslogCef]);
defineCase(
  'extract',
  [{ function: 'EXTRACT', definition: { regex: 'user=(?<user>\\w+) port=(?<port>\\d+)' } }],
  ['x user=bob port=443 y', 'no match here'],
);
// a record read from Kafka is text, and EXTRACT matches text itself: an earlier task makes it an event
defineCase(
  'extract-field',
  [
    { function: 'EVAL', definition: { eval: [{ action: 'set', field: 'seen', value: 'true' }] } },
    { function: 'EXTRACT', definition: { regex: '^(?<host>[^.]+)\\.', field: 'fqdn' } },
  ],
  [{ fqdn: 'web01.example.com' }],
);
const filterInputs = [
  { user: 'alice', n: 1 },
  { user: 'bob', n: 2 },
  { user: 'carol', n: 3 },
  { user: 'alice', n: 4 },
];
defineCase(
  'filter-regex-keep',
  [{ function: 'FILTER', definition: { type: 'regex', value: '"user":"(alice|carol)"' } }],
  filterInputs,
);
defineCase(
  'filter-regex-drop',
  [{ function: 'FILTER', definition: { type: 'regex', value: 'bob|carol', action: 'drop' } }],
  filterInputs,
);
defineCase(
  'filter-pdl-keep',
  [{ function: 'FILTER', definition: { type: 'pdl', value: 'user="alice" OR n=3', action: 'keep' } }],
  filterInputs,
);
defineCase(
  'filter-pdl-drop',
  [{ function: 'FILTER', definition: { type: 'pdl', value: 'n < 3', action: 'drop' } }],
  filterInputs,
);
defineCase(
  'filter-raw',
  [
    { function: 'PARSE_KV', definition: {} },
    { function: 'FILTER', definition: { type: 'regex', value: '^user=a' } },
  ],
  ['user=alice', 'user=bob', 'user=anna'],
);
defineCase(
  'eval',
  [
    {
      function: 'EVAL',
      definition: {
        eval: [
          { action: 'rename', field: 'user', value: 'username' },
          { condition: 'port > 1024', action: 'set', field: 'range', value: '"high"' },
          { condition: 'port <= 1024', action: 'set', field: 'range', value: '"low"' },
          { action: 'set', field: 'next', value: 'port + 1' },
          { action: 'set', field: 'who', value: 'upper(username)' },
          { condition: 'secret="x"', action: 'remove', field: 'secret' },
        ],
      },
    },
  ],
  [
    { user: 'bob', port: 443, secret: 'x' },
    { user: 'eve', port: 8080, secret: 'y' },
  ],
);
defineCase(
  'pdl',
  [
    {
      function: 'PDL_EXPRESSION',
      definition: { pdl: 'action="login" | eval who=upper(user) | fields keep who, action' },
    },
  ],
  [
    { user: 'alice', action: 'login', x: 1 },
    { user: 'bob', action: 'logout' },
    { user: 'carol', action: 'login' },
  ],
);
defineCase(
  'rules-all',
  [{ function: 'APPLY_RULES', definition: { rules: ['tk-off', 'tk-root', 'tk-login', 'tk-missing'] } }],
  [
    { user: 'root', action: 'login' },
    { user: 'bob', action: 'read' },
    { user: 'alice', action: 'login' },
  ],
);
defineCase(
  'rules-first',
  [{ function: 'APPLY_RULES', definition: { rules: ['tk-off', 'tk-root', 'tk-login'], matchAll: false } }],
  [
    { user: 'root', action: 'login' },
    { user: 'alice', action: 'login' },
  ],
);
defineCase(
  'output-field',
  [
    { function: 'PARSE_KV', definition: {} },
    { function: 'OUTPUT_FIELD', definition: { field: 'msg' } },
  ],
  ['msg=hello user=a', 'msg="two words" n=1'],
);
defineCase(
  'output-object',
  [{ function: 'OUTPUT_FIELD', definition: { field: 'o' } }],
  [{ o: { a: 1, b: [true, null] } }, { o: 42 }, { o: 'plain' }],
);
defineCase(
  'chain',
  [
    { function: 'PARSE_KV', definition: {} },
    { function: 'TIMESTAMP', definition: { field: 't', format: 'epoch_millis' } },
    { function: 'EVAL', definition: { eval: [{ action: 'set', field: 'tag', value: '"seen"' }] } },
    { function: 'PDL_EXPRESSION', definition: { pdl: 'fields remove _raw' } },
  ],
  ['t=1700000000123 user=zed'],
);

const rules = [
  { id: 'tk-off', name: 'Disabled', description: '', pdl: 'user="*"', annotations: [], enabled: false },
  { id: 'tk-root', name: 'Root', description: '', pdl: 'user="root"', annotations: ['T1078'], enabled: true },
  {
    id: 'tk-login',
    name: 'Login',
    description: '',
    pdl: 'action="login" | eval seen=true',
    annotations: [],
    enabled: true,
  },
];

describe('the stream engine: every task function through a running topology', () => {
  let token: string;
  const settings = isolatedEngine('tasks');
  const alertsTopic = `${settings['weir.topic.prefix']}_alerts`;

  const t = useTestNode(settings, async () => {
    token = await t.initAdmin();
    const all = [...cases.values()];
    await createTopics(all.flatMap((c) => [c.input, c.output]));
    const tasks: Json[] = [];
    const pipelines: Json[] = [];
    const topologies: Json[] = [];
    for (const c of all) {
      const ids = c.tasks.map((task) => {
        const id = nextTaskId++;
        tasks.push({
          id,
          name: `${c.label}-${id}`,
          description: '',
          function: task.function,
          definition: task.definition,
        });
        return id;
      });
      const id = nextId++;
      pipelines.push({ id, name: c.label, description: '', tasks: ids });
      topologies.push({
        id,
        name: c.label,
        description: '',
        pipelines: [id],
        enabled: true,
        group: 'default',
        input: { name: c.input },
        output: [{ name: c.output }],
      });
    }
    for (const [path, body] of [
      ['rules', rules],
      ['tasks', tasks],
      ['pipelines', pipelines],
      ['topologies', topologies],
    ] as const) {
      const res = await t.call('POST', `/api/bulk/${path}`, { token, body });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
    }
    await waitForRunning(t, token);
    await Promise.all(all.map((c) => produce(c.input, c.inputs)));
  });

  /**
   * What a case wrote, in order. The last input of every case yields the last expected output, so
   * an extra or duplicate record shows as a difference in what is read.
   */
  const expect = async (label: string, count: number): Promise<RawMessage[]> => {
    const messages = await consume(cases.get(label)!.output, count, 30_000);
    assert.equal(messages.length, count, `${label}: ${messages.map((m) => m.value.toString()).join(' | ')}`);
    return messages;
  };

  test('all outputs', async (s) => {
    const counts: Record<string, number> = {
      'ts-java': 3,
      'ts-strftime': 1,
      'ts-epoch-nofield': 2,
      kv: 2,
      'kv-colon': 1,
      csv: 2,
      'csv-semicolon': 1,
      cef: 2,
      extract: 2,
      'extract-field': 1,
      'filter-regex-keep': 3,
      'filter-regex-drop': 2,
      'filter-pdl-keep': 3,
      'filter-pdl-drop': 2,
      'filter-raw': 2,
      eval: 2,
      pdl: 2,
      'rules-all': 3,
      'rules-first': 2,
      'output-field': 2,
      'output-object': 3,
      chain: 1,
    };
    assert.deepEqual(Object.keys(counts).sort(), [...cases.keys()].sort());
    const got = new Map(
      await Promise.all(
        Object.entries(counts).map(
          async ([label, n]) => [label, await expect(label, n).catch((e: Error) => e)] as const,
        ),
      ),
    );
    const out = (label: string): RawMessage[] => {
      const v = got.get(label);
      if (v instanceof Error) throw v;
      return v!;
    };
    const inputOf = (label: string, i: number) => cases.get(label)!.inputs[i]!;

    await s.test('TIMESTAMP: Java pattern; unparseable and missing fall back to the record timestamp', () => {
      const [a, b, c] = out('ts-java');
      assert.deepEqual(json(a!), { ts: '2024-01-02T03:04:05.678+0100', n: 1, _time: T_JAVA });
      assert.equal(Number(a!.timestamp), T_JAVA, 'the Kafka timestamp is the parsed time');
      // regression: records > 2^31 ms apart in one produce got Kafka timestamps off by a few ms (see timestampSafeRuns)
      assert.deepEqual(untimed(b!), { ts: 'not a time', n: 2 });
      assert.ok(Math.abs(Number(b!.timestamp) - Date.now()) < 120_000, 'the record timestamp of the input (now)');
      assert.deepEqual(untimed(c!), { n: 3 });
    });

    await s.test(
      'TIMESTAMP: strftime pattern into timeFieldName; epoch with addNewField=false sets only the record time',
      () => {
        const [a] = out('ts-strftime');
        assert.deepEqual(untimed(a!), { when: '2023-04-05 06:07:08', at: T_STRF });
        assert.equal(Number(a!.timestamp), T_STRF);
        const [e1, e2] = out('ts-epoch-nofield');
        assert.equal(Number(e1!.timestamp), 1_700_000_000_000);
        assert.deepEqual(untimed(e1!), { e: 1700000000 });
        assert.equal(Number(e2!.timestamp), 1_700_000_000_500);
        assert.deepEqual(untimed(e2!), { e: '1700000000.5' });
      },
    );

    await s.test(
      'PARSE_KV: pairs split by blanks and commas, quotes, numerals, _raw; delimiter and keepRaw=false',
      () => {
        const [a, b] = out('kv');
        assert.deepEqual(untimed(a!), {
          user: 'alice',
          action: 'log in',
          port: 443,
          id: '007',
          _raw: inputOf('kv', 0),
        });
        assert.deepEqual(untimed(b!), { k: 'v', _raw: 'k = v' });
        assert.deepEqual(untimed(out('kv-colon')[0]!), { user: 'bob', count: 3 });
      },
    );

    await s.test('PARSE_CSV: quoted cells, trimmed, numerals; extra names unset; delimiter and rawFieldName', () => {
      const [a, b] = out('csv');
      assert.deepEqual(untimed(a!), { year: 2024, user: 'Smith, J', action: 'login', _raw: '2024,"Smith, J", login' });
      assert.deepEqual(untimed(b!), { year: 'a;b', _raw: 'a;b' });
      assert.deepEqual(untimed(out('csv-semicolon')[0]!), { a: 1, b: 'x', line: '1;x;ignored' });
    });

    await s.test('PARSE_CEF: header, extension with escapes, syslog prefix', () => {
      const [a, b] = out('cef');
      assert.deepEqual(untimed(a!), {
        cefVersion: '0',
        deviceVendor: 'Security',
        deviceProduct: 'threatmanager',
        deviceVersion: '1.0',
        signatureId: '100',
        name: 'worm successfully stopped',
        severity: '10',
        src: '10.0.0.1',
        dst: '2.1.2.2',
        spt: '1232',
        msg: 'a=b c\\d',
        _raw: cef,
      });
      assert.deepEqual(untimed(b!), {
        syslogHeader: '<134>Sep 19 08:26:10 host01',
        cefVersion: '1',
        deviceVendor: 'V',
        deviceProduct: 'P',
        deviceVersion: '2',
        signatureId: 's',
        name: 'n',
        severity: 'Low',
        act: 'allow',
        _raw: syslogCef,
      });
    });

    await s.test(
      'EXTRACT: named groups from text (numerals become numbers); no match passes; from an event field',
      () => {
        const [a, b] = out('extract');
        assert.deepEqual(untimed(a!), { _raw: 'x user=bob port=443 y', user: 'bob', port: 443 });
        assert.deepEqual(untimed(b!), { _raw: 'no match here' });
        assert.deepEqual(untimed(out('extract-field')[0]!), { fqdn: 'web01.example.com', seen: true, host: 'web01' });
      },
    );

    await s.test('FILTER: regex and pdl, keep and drop; the record passes unchanged', () => {
      const inputs = filterInputs.map((e) => JSON.stringify(e));
      // the records are text (never parsed by another task): FILTER passes the very bytes
      assert.deepEqual(out('filter-regex-keep').map(text), [inputs[0], inputs[2], inputs[3]]);
      assert.deepEqual(out('filter-regex-drop').map(text), [inputs[0], inputs[3]]);
      assert.deepEqual(out('filter-pdl-keep').map(text), [inputs[0], inputs[2], inputs[3]]);
      assert.deepEqual(out('filter-pdl-drop').map(text), [inputs[2], inputs[3]]);
      // an event: the regex reads its _raw
      assert.deepEqual(out('filter-raw').map(untimed), [
        { user: 'alice', _raw: 'user=alice' },
        { user: 'anna', _raw: 'user=anna' },
      ]);
    });

    await s.test('EVAL: rename, conditional set, computed set, remove, in order', () => {
      const [a, b] = out('eval');
      assert.deepEqual(untimed(a!), { username: 'bob', port: 443, range: 'low', next: 444, who: 'BOB' });
      assert.deepEqual(untimed(b!), {
        username: 'eve',
        port: 8080,
        range: 'high',
        next: 8081,
        who: 'EVE',
        secret: 'y',
      });
    });

    await s.test('PDL_EXPRESSION: the output of the PDL, nothing when it yields nothing', () => {
      assert.deepEqual(out('pdl').map(untimed), [
        { who: 'ALICE', action: 'login' },
        { who: 'CAROL', action: 'login' },
      ]);
    });

    await s.test(
      'APPLY_RULES: one alert per matching enabled rule in order (matchAll), the first only (matchAll=false); disabled and missing skipped',
      async () => {
        const root = { id: 'tk-root', name: 'Root', annotations: ['T1078'] };
        const login = { id: 'tk-login', name: 'Login', annotations: [] };
        assert.deepEqual(out('rules-all').map(untimed), [
          { user: 'root', action: 'login', _rule: root },
          { user: 'root', action: 'login', seen: true, _rule: login },
          { user: 'alice', action: 'login', seen: true, _rule: login },
        ]);
        assert.deepEqual(out('rules-first').map(untimed), [
          { user: 'root', action: 'login', _rule: root },
          { user: 'alice', action: 'login', seen: true, _rule: login },
        ]);
        const alerts = (await consume(alertsTopic, 5, 30_000)).map(untimed);
        const key = (a: Json) => JSON.stringify([a.user, (a._rule as Json).id]);
        assert.deepEqual(
          alerts.map(key).sort(),
          [
            ['root', 'tk-root'],
            ['root', 'tk-login'],
            ['alice', 'tk-login'],
            ['root', 'tk-root'],
            ['alice', 'tk-login'],
          ]
            .map((x) => JSON.stringify(x))
            .sort(),
          'the alerts topic has every alert, once',
        );
      },
    );

    await s.test('OUTPUT_FIELD: the field as text; objects and arrays as JSON, numbers as their text', () => {
      assert.deepEqual(out('output-field').map(text), ['hello', 'two words']);
      assert.deepEqual(out('output-object').map(text), ['{"a":1,"b":[true,null]}', '42', 'plain']);
    });

    await s.test('a pipeline of four tasks: PARSE_KV → TIMESTAMP → EVAL → PDL_EXPRESSION', () => {
      const [a] = out('chain');
      assert.equal(Number(a!.timestamp), 1_700_000_000_123);
      assert.deepEqual(json(a!), { t: 1700000000123, user: 'zed', _time: 1_700_000_000_123, tag: 'seen' });
    });
  });
});
