import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { isolatedEngine, post, waitFor, waitForRunning } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { kcatProduce, kcatValues } from '@weir/test-helpers/kcat';
import { uniqueTopic } from '@weir/test-helpers/topics';
import {
  privateCaCertificate,
  startWebhookReceiver,
  type ReceivedRequest,
  type WebhookReceiver,
} from '@weir/test-helpers/webhook-receiver';
import { seriousViolations, shoot, signIn, startConsole, tableRows, type Console } from '../helpers/console.ts';

/**
 * The alert story of issue 21 (docs/alerts.md, "From a burst to a notification"), every step a
 * person takes in the browser (Debian's chromium) against the real UI server, a real engine node
 * with its notifications on, the test broker, and a local HTTPS receiver on 127.0.0.1 whose
 * certificate a private CA signed: an admin makes a notifier in the Notifiers page (the CA pasted
 * in the form) → a burst of 50 events on four partitions → one group of 50 in the Alerts page, the
 * receiver getting each of the 50, signed → an analyst acknowledges them all at once, closes one
 * as a false positive (its history says who) → "Silence similar…" from it, narrowed to the user →
 * active on the Silences page, alice's alerts marked silenced → one more event the silence covers
 * and one it does not: the receiver gets only the second, once the notify group has read both.
 */
const engine = isolatedEngine('ui-alert-story');
const alertsTopic = `${engine['weir.topic.prefix']}_alerts`;
const notifyGroup = `${engine['weir.application.id']}-notify`;
const input = uniqueTopic('alert-story-in');
const secret = 'story-webhook-secret-4711';
/** Event times far from now (2021), as a replay or a late log shipper gives them. */
const T0 = Date.UTC(2021, 5, 1, 8, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

/** Alice fails 40 logins, bob 10, on three hosts: 50 unkeyed events. */
const burst = Array.from({ length: 50 }, (_, n) => ({
  n,
  action: 'login',
  status: 'failed',
  user: n % 5 === 4 ? 'bob' : 'alice',
  host: `web-${(n % 3) + 1}`,
  _time: T0 + n * 1000,
}));
/** After the silence: alice on a host of none of the burst (covered), bob (not covered). */
const covered = { n: 50, action: 'login', status: 'failed', user: 'alice', host: 'web-9', _time: T0 + 60_000 };
const uncovered = { n: 51, action: 'login', status: 'failed', user: 'bob', host: 'web-1', _time: T0 + 61_000 };

type AlertRecord = { n: number; user: string; _rule: { id: string }; _alert: { id: string; severity: string } };
type Delivery = { notifier: string; delivery: string; alert: AlertRecord };

let c: Console;
/** The receiver's certificate, signed by a private CA whose certificate the admin pastes in the form. */
const tls = privateCaCertificate();
let receiver: WebhookReceiver;
let token: string;
let admin: Page;
let page: Page;

/** The records the engine wrote to the alerts topic, read with kcat (not through Weir). */
const alertsOnTopic = async () => (await kcatValues(alertsTopic)).map((v) => JSON.parse(v) as AlertRecord);
const idOf = (records: AlertRecord[], n: number) => records.find((r) => r.n === n)?._alert.id;

/** A webhook request as the receiver checks it: the HMAC-SHA256 of the raw body, compared in constant time. */
function verified(r: ReceivedRequest): Delivery {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(r.body).digest('hex')}`);
  const given = Buffer.from(String(r.headers['x-weir-signature'] ?? ''));
  assert.ok(given.length === expected.length && timingSafeEqual(given, expected), 'X-Weir-Signature verifies');
  const body = JSON.parse(r.body.toString('utf8')) as Delivery;
  assert.equal(r.headers['x-weir-alert-id'], body.alert._alert.id);
  assert.equal(r.headers['x-weir-delivery'], body.delivery);
  assert.equal(body.notifier, 'soc');
  return body;
}
const receivedIds = () => new Set(receiver.requests.map((r) => verified(r).alert._alert.id));

const nav = (p: Page, label: string) =>
  p.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label, exact: true }).click();
/** A Mantine Select or TagsInput by its label (a combobox or a textbox, by version). */
const field = (scope: Page | Locator, label: string) =>
  scope
    .getByRole('combobox', { name: label, exact: true })
    .or(scope.getByRole('textbox', { name: label, exact: true }))
    .first();
/** axe on the page with the pointer off the navigation: no serious or critical violation. */
async function axe(p: Page, where: string): Promise<void> {
  await p.mouse.move(700, 890);
  assert.deepEqual(await seriousViolations(p), [], where);
}
/** The Alerts table's column (0: checkbox, 1: time … 6: status, 8: silenced), by entity. */
async function column(p: Page, index: number): Promise<Map<string, string[]>> {
  const byEntity = new Map<string, string[]>();
  for (const row of await tableRows(p, 'Alerts'))
    byEntity.set(row[5]!, [...(byEntity.get(row[5]!) ?? []), row[index]!]);
  return byEntity;
}

before(async () => {
  receiver = await startWebhookReceiver({ key: tls.key, cert: tls.cert });
  // Notifications are off for test nodes by default (test-node.ts): this node sends them.
  c = await startConsole({ ...engine, 'weir.notify.enabled': 'true' });
  token = await c.node.initAdmin();
  await c.node.createUser(token, 'uma');
  // The admin's detection, there before the story starts: a high-severity rule on the input topic.
  await createTopics([input], 4);
  await post(c.node, token, '/api/rules', {
    id: 'failed-login',
    name: 'Failed login',
    pdl: 'action="login" AND status="failed"',
    annotations: ['T1110'],
    severity: 'high',
    enabled: true,
  });
  await post(c.node, token, '/api/tasks', {
    id: 1,
    name: 'rules',
    function: 'APPLY_RULES',
    definition: { rules: ['failed-login'] },
  });
  await post(c.node, token, '/api/pipelines', { id: 1, name: 'detect', tasks: [1] });
  await post(c.node, token, '/api/topologies', {
    id: 1,
    name: 'logins',
    pipelines: [1],
    enabled: true,
    input: { name: input },
    output: [{ name: uniqueTopic('alert-story-out') }],
  });
  await waitForRunning(c.node, token);
  admin = await (await c.context('light')).newPage();
  await signIn(admin, 'admin', 'admin-pw');
});

after(async () => {
  await c?.stop();
  await receiver?.close();
});

describe('from a burst of alerts to a notification, in the browser', () => {
  test('an admin makes a notifier for the rule in the Notifiers page, the private CA pasted in the form', async () => {
    await nav(admin, 'Notifiers');
    await admin.getByRole('button', { name: 'New notifier' }).click();
    const form = admin.getByRole('dialog', { name: 'New notifier' });
    await form.getByRole('textbox', { name: 'Id' }).fill('soc');
    await form.getByRole('textbox', { name: 'Name' }).fill('SOC webhook');
    await form.getByRole('textbox', { name: 'Address' }).fill(`${receiver.url}/weir`);
    await form.getByLabel('Secret').fill(secret);
    await field(form, 'Minimum severity').click();
    await admin.getByRole('option', { name: 'high', exact: true }).click();
    await field(form, 'Rules').fill('failed-login');
    await field(form, 'Rules').press('Enter');
    await form.getByRole('textbox', { name: 'Per minute at most' }).fill('600');
    await form.getByRole('textbox', { name: 'CA certificate (PEM)' }).fill(tls.ca);
    await axe(admin, 'the notifier form');
    await shoot(admin, 'alert-story-notifier-light');
    await form.getByRole('button', { name: 'Save notifier' }).click();
    await form.waitFor({ state: 'hidden' });
    await admin.getByText('Notifier soc saved').waitFor();
    assert.match(
      (await admin.getByTestId('notifier-row').textContent()) ?? '',
      /^socSOC webhookhttps:\/\/127\.0\.0\.1:\d+\/weirhigh or above · rules failed-login600on/,
    );
    await axe(admin, 'the Notifiers page');
    await admin.context().close();
  });

  test('a burst of 50 events: one group of 50 in the Alerts page, live; the receiver gets each alert, signed', async () => {
    page = await (await c.context('light')).newPage();
    await signIn(page, 'uma', 'uma-pw');
    await nav(page, 'Alerts');
    await page.getByText('0 alerts · live', { exact: false }).waitFor();
    await kcatProduce(
      input,
      burst.map((e) => JSON.stringify(e)),
    );
    await page.getByText('50 alerts · live', { exact: false }).waitFor({ timeout: 30_000 });
    await page.locator('.mantine-SegmentedControl-label', { hasText: /^rule$/ }).click();
    await page.waitForURL(/\/alerts\?group=rule$/);
    await page.getByText('1 group', { exact: true }).waitFor();
    assert.deepEqual(await tableRows(page, 'Alert groups'), [['failed-login', '50', iso(T0), iso(T0 + 49_000)]]);
    // newest first: time, severity, rule (id and name), techniques, entity, status, assignee, silenced
    assert.deepEqual((await tableRows(page, 'Alerts'))[0]!.slice(1), [
      iso(T0 + 49_000),
      'high',
      'failed-loginFailed login',
      'T1110',
      'user=bob host=web-2',
      'new',
      '',
      '',
    ]);
    const onTopic = await alertsOnTopic();
    const sources = new Set(
      onTopic.map((r) => (r._alert as unknown as { source: { partition: number } }).source.partition),
    );
    assert.ok(sources.size > 1, `the burst came from several partitions (${[...sources].join(', ')})`);
    await axe(page, 'the Alerts page grouped by rule');
    await shoot(page, 'alert-story-group-light');

    // Notifications are at least once per alert and notifier (docs/alerts.md): each of the 50, signed.
    const burstIds = new Set(onTopic.map((r) => r._alert.id));
    assert.equal(burstIds.size, 50);
    await waitFor('the receiver to get the 50 alerts', async () => receivedIds().size >= 50, 30_000);
    assert.deepEqual(receivedIds(), burstIds);
    for (const r of receiver.requests) {
      const { alert } = verified(r);
      assert.deepEqual([r.path, alert._rule.id, alert._alert.severity], ['/weir', 'failed-login', 'high']);
    }
  });

  test('the analyst acknowledges the 50 at once, then closes one as a false positive: its history says who', async () => {
    await page.getByRole('checkbox', { name: 'Select every alert shown' }).check();
    await page.getByText('50 selected', { exact: true }).waitFor();
    await page.getByTestId('bulk-actions').getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByText('50 alerts acknowledged', { exact: true }).waitFor();
    assert.deepEqual([...new Set((await tableRows(page, 'Alerts')).map((r) => r[6]))], ['acknowledged']);

    await page
      .getByTestId('alert-row')
      .filter({ hasText: 'user=alice host=web-1' })
      .first()
      .getByRole('link', { name: /^Alert [0-9a-f]{32} at / })
      .click();
    const drawer = page.getByRole('dialog', { name: 'Alert: Failed login' });
    await drawer.getByText('Last change by uma at', { exact: false }).waitFor();
    await field(drawer, 'Status').click();
    await page.getByRole('option', { name: 'closed', exact: true }).click();
    await field(drawer, 'Resolution').click();
    await page.getByRole('option', { name: 'false positive', exact: true }).click();
    await drawer.getByRole('textbox', { name: 'Note' }).fill('alice mistyped after a password change');
    await drawer.getByRole('button', { name: 'Save triage' }).click();
    await drawer.getByTestId('alert-note').getByText('alice mistyped after a password change').waitFor();
    await drawer.getByTestId('alert-triage').getByText('closed: false_positive', { exact: true }).waitFor();
    const history = (await drawer.getByTestId('alert-history').textContent()) ?? '';
    assert.match(
      history,
      /^Notesuma at \d{4}-\d\d-\d\dT[\d:.]+Zalice mistyped after a password changeLast change by uma at /,
    );
    const closedId = /\/alerts\/([0-9a-f]{32})/.exec(page.url())?.[1];
    assert.ok(closedId);
    await axe(page, 'the alert drawer');
    await shoot(page, 'alert-story-closed-light');
    const stored = (await c.node.call('GET', `/api/alerts/${closedId}`, { token })).body as Record<string, unknown>;
    assert.deepEqual([stored.status, stored.resolution, stored.updatedBy], ['closed', 'false_positive', 'uma']);
  });

  test('"Silence similar…" from the alert, narrowed to the user: active on the Silences page, alice\'s alerts silenced', async () => {
    const drawer = page.getByRole('dialog', { name: 'Alert: Failed login' });
    await drawer.getByRole('link', { name: 'Silence similar…' }).click();
    await page.waitForURL(/\/silences\/new\?match=/);
    const form = page.getByRole('dialog', { name: 'New silence' });
    await form.getByRole('textbox', { name: 'Field 1' }).waitFor();
    const matchers = async () =>
      Promise.all(
        (await form.getByTestId('matcher-row').all()).map(
          async (row) =>
            `${await row.getByRole('textbox', { name: /^Field/ }).inputValue()}=${await row.getByRole('textbox', { name: /^Value/ }).inputValue()}`,
        ),
      );
    assert.deepEqual(await matchers(), ['_rule.id=failed-login', 'user=alice', 'host=web-1']);
    // All of alice's failed logins, on any host: the host matcher goes.
    await form.getByRole('button', { name: 'Remove matcher 3' }).click();
    assert.deepEqual(await matchers(), ['_rule.id=failed-login', 'user=alice']);
    assert.equal(await form.getByRole('textbox', { name: 'Ends' }).inputValue(), '2h');
    await form.getByRole('textbox', { name: 'Comment' }).fill("alice's password change, ticket 4711");
    await form.getByRole('button', { name: 'Save silence' }).click();
    await form.waitFor({ state: 'hidden' });
    await page.waitForURL(/\/silences$/);
    await page.getByTestId('silence-row').waitFor();
    const [row] = await tableRows(page, 'Silences');
    assert.deepEqual(
      [row![0], row![1], row![4], row![5]],
      ['active', '_rule.id="failed-login"user="alice"', 'uma', "alice's password change, ticket 4711"],
    );
    await axe(page, 'the Silences page');
    await shoot(page, 'alert-story-silences-light');

    // A silence made now covers the stored burst too (docs/alerts.md, "Silences"): alice's 40, not bob's 10.
    await nav(page, 'Alerts');
    await page.getByText('50 alerts · live', { exact: false }).waitFor();
    const silenced = await column(page, 8);
    for (const [entity, marks] of silenced)
      assert.deepEqual(new Set(marks), new Set([entity.startsWith('user=alice') ? 'silenced' : '']), entity);
    assert.equal([...silenced.values()].flat().filter((m) => m === 'silenced').length, 40);
  });

  test('the next alerts: the receiver gets the one the silence does not cover, never the one it covers', async () => {
    const before = receiver.requests.length;
    await kcatProduce(input, [JSON.stringify(covered), JSON.stringify(uncovered)]);
    await page.getByText('52 alerts · live', { exact: false }).waitFor({ timeout: 30_000 });
    const rows = await tableRows(page, 'Alerts');
    assert.deepEqual(
      rows.slice(0, 2).map((r) => [r[1], r[5], r[6], r[8]]),
      [
        [iso(uncovered._time), 'user=bob host=web-1', 'new', ''],
        [iso(covered._time), 'user=alice host=web-9', 'new', 'silenced'],
      ],
    );
    await axe(page, 'the Alerts page with silenced alerts');
    await shoot(page, 'alert-story-silenced-light');

    // The notify group has read both (its committed offsets are the topic's end: each delivery ended,
    // the covered one by its silence) — only then is the absence of the covered one meaningful.
    type Partition = { committedOffset: number | null; endOffset: number };
    await waitFor(
      'the notify group to commit the alerts topic to its end',
      async () => {
        const res = await c.node.call('GET', `/api/consumer-groups/${notifyGroup}`, { token });
        const partitions = (res.body as { partitions?: Partition[] }).partitions ?? [];
        const total = partitions.reduce((sum, p) => sum + p.endOffset, 0);
        return total === 52 && partitions.every((p) => p.committedOffset === p.endOffset);
      },
      30_000,
    );
    const onTopic = await alertsOnTopic();
    const [coveredId, uncoveredId] = [idOf(onTopic, covered.n), idOf(onTopic, uncovered.n)];
    assert.ok(coveredId && uncoveredId);
    // What a receiver acts on: each delivery id once (deliveries are at least once, docs/alerts.md).
    const seen = new Set(receiver.requests.slice(0, before).map((r) => verified(r).delivery));
    const next = new Map(
      receiver.requests
        .slice(before)
        .map(verified)
        .map((d) => [d.delivery, d]),
    );
    assert.deepEqual(
      [...next.values()]
        .filter((d) => !seen.has(d.delivery))
        .map((d) => [d.alert._alert.id, d.alert._rule.id, d.alert.user]),
      [[uncoveredId, 'failed-login', 'bob']],
    );
    assert.ok(!receivedIds().has(coveredId), 'the silenced alert was never sent');
  });
});
