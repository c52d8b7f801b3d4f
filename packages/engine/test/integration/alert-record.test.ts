import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AlertMetadata } from '@weir/contract';
import { isolatedEngine, post, waitFor, waitForRunning } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { kcatLines, kcatProduce } from '@weir/test-helpers/kcat';
import { useTestNode } from '@weir/test-helpers/test-node';

type Alert = { _raw: string; _time: number; _rule: { id: string }; _alert: AlertMetadata };

/**
 * The alerts topic's `_alert` (docs/alerts.md) through the real engine, read with kcat: unkeyed
 * events on 3 partitions, 2 stream threads, event times in 2019. Every alert names the input record
 * it came from, its rule's severity and techniques and its event time; a replay of the input (the
 * group's offsets reset to the start) writes every alert again with the same id and the same bytes.
 */
describe('the alert record on the alerts topic', () => {
  let token: string;
  const settings = { ...isolatedEngine('alert-record'), 'num.stream.threads': '2' };
  const input = uniqueTopic('alert-rec-in');
  const output = uniqueTopic('alert-rec-out');
  const alertsTopic = `${settings['weir.topic.prefix']}_alerts`;
  const t = useTestNode(settings, async () => {
    token = await t.initAdmin();
    await createTopics([input], 3);
    await createTopics([output]);
  });

  const events = Array.from({ length: 120 }, (_, i) => {
    const user = i % 4 === 0 ? 'root' : `u${i}`;
    const status = i % 3 === 0 ? 'failed' : 'ok';
    const second = String(i % 60).padStart(2, '0');
    return `n=${i} user=${user} status=${status} time="2019-03-0${1 + (i % 9)} 10:0${i % 10}:${second}"`;
  });
  const matches = {
    fail: events.filter((_, i) => i % 3 === 0).length,
    root: events.filter((_, i) => i % 4 === 0).length,
  };
  const total = matches.fail + matches.root;

  test('each alert: a 32-hex id of its own, the rule severity and techniques, the event time, its input record', async () => {
    await post(t, token, '/api/rules', {
      id: 'fail',
      name: 'Failed',
      pdl: 'status="failed"',
      annotations: ['attack.t1110.001', 'T1078'],
      severity: 'high',
      enabled: true,
    });
    // no severity of its own: a Sigma import from before severities, its level read from the annotation
    await post(t, token, '/api/rules', {
      id: 'root',
      name: 'Root',
      pdl: 'user="root"',
      annotations: ['sigma.level=low'],
      enabled: true,
    });
    await post(t, token, '/api/tasks', { id: 1, name: 'kv', function: 'PARSE_KV', definition: {} });
    await post(t, token, '/api/tasks', {
      id: 2,
      name: 'ts',
      function: 'TIMESTAMP',
      definition: { field: 'time', format: 'yyyy-MM-dd HH:mm:ss' },
    });
    await post(t, token, '/api/tasks', {
      id: 3,
      name: 'rules',
      function: 'APPLY_RULES',
      definition: { rules: ['fail', 'root'] },
    });
    await post(t, token, '/api/pipelines', { id: 1, name: 'detect', tasks: [1, 2, 3] });
    await post(t, token, '/api/topologies', {
      id: 1,
      name: 'alert-record',
      pipelines: [1],
      enabled: true,
      group: 'default',
      input: { name: input },
      output: [{ name: output }],
    });
    await waitForRunning(t, token);
    await kcatProduce(input, events);

    const where = new Map(
      (await kcatLines(input, '%p %o %s\n')).map((line) => {
        const [p, o] = line.split(' ', 2) as [string, string];
        return [line.slice(p.length + o.length + 2), { topic: input, partition: Number(p), offset: Number(o) }];
      }),
    );
    assert.equal(where.size, events.length);
    assert.ok(new Set([...where.values()].map((w) => w.partition)).size > 1, 'the input spreads over partitions');

    const alerts = await waitFor(
      `${total} alerts on ${alertsTopic}`,
      async () => {
        const lines = await kcatLines(alertsTopic, '%s\n');
        return lines.length >= total && lines.map((l) => JSON.parse(l) as Alert);
      },
      60_000,
    );
    assert.equal(alerts.length, total);
    assert.equal(new Set(alerts.map((a) => a._alert.id)).size, total, 'every alert has an id of its own');
    for (const a of alerts) {
      assert.match(a._alert.id, /^[0-9a-f]{32}$/);
      assert.deepEqual(a._alert.source, where.get(a._raw), a._raw);
      assert.equal(a._alert.time, a._time);
      assert.equal(new Date(a._time).getUTCFullYear(), 2019);
      assert.deepEqual(
        [a._alert.severity, a._alert.techniques],
        a._rule.id === 'fail' ? ['high', ['T1110.001', 'T1078']] : ['low', []],
      );
    }
    assert.deepEqual(
      [alerts.filter((a) => a._rule.id === 'fail').length, alerts.filter((a) => a._rule.id === 'root').length],
      [matches.fail, matches.root],
    );
  });

  test('a replay of the same records gives the same alerts, ids and bytes, whatever the partition and thread', async () => {
    const first = await kcatLines(alertsTopic, '%s\n');
    assert.equal(first.length, total);
    const stopped = await t.call('POST', '/api/engine/stop', { token });
    assert.equal(stopped.status, 200);
    const group = settings['weir.application.id'];
    const reset = await waitFor('the group to have no members and reset', async () => {
      const res = await t.call('POST', `/api/consumer-groups/${group}/reset-offsets`, {
        token,
        body: { to: 'earliest', topics: [input] },
      });
      return res.status === 200 && res;
    });
    assert.ok((reset.body as { offsets: { offset: number }[] }).offsets.every((o) => o.offset === 0));
    assert.equal((await t.call('POST', '/api/engine/start', { token })).status, 200);
    const all = await waitFor(
      `${2 * total} alerts after the replay`,
      async () => {
        const lines = await kcatLines(alertsTopic, '%s\n');
        return lines.length >= 2 * total && lines;
      },
      60_000,
    );
    // each record of the first run is on the topic twice now, byte for byte (ids included)
    assert.deepEqual([...all].sort(), [...first, ...first].sort(), 'the replay wrote the same alert records');
  });
});
