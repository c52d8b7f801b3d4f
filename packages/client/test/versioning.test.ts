import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SessionExpiredError, WeirClient } from '../src/index.ts';

interface Recorded {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}
interface Fixture {
  form: string;
  responses: Record<string, Recorded>;
}

const forms = ['earlier', 'middle', 'latest'].map(
  (f) => JSON.parse(readFileSync(new URL(`./fixtures/${f}.json`, import.meta.url), 'utf8')) as Fixture,
);

/** A fetch that answers from a fixture, recording what the client asked. */
function replay(fixture: Fixture, calls: string[] = []): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push(`${key} ${(init?.headers as Record<string, string> | undefined)?.authorization ?? ''}`);
    const recorded = fixture.responses[key];
    if (!recorded) return new Response(null, { status: 403 });
    return new Response(JSON.stringify(recorded.body), {
      status: recorded.status,
      headers: { 'content-type': 'application/json', ...recorded.headers },
    });
  }) as typeof fetch;
}

const client = (fixture: Fixture, calls?: string[]) =>
  new WeirClient({
    baseUrl: 'https://weir.test',
    fetch: replay(fixture, calls),
    tokens: { access_token: 'a', refresh_token: 'r' },
  });

for (const fixture of forms) {
  describe(`client reads the ${fixture.form} form`, () => {
    it('engine state as {states: []}', async () => {
      const state = await client(fixture).engineState();
      assert.ok(Array.isArray(state.states) && state.states.length > 0);
      assert.deepEqual(
        state.states,
        fixture.form === 'earlier'
          ? ['RUNNING']
          : (fixture.responses['GET /api/engine/state']!.body as { states: string[] }).states,
      );
    });

    it('topology input and output as objects with serdes', async () => {
      const t = await client(fixture).topologies.get(1);
      assert.equal(t.input.name, 'events');
      assert.equal(t.input.keySerde, 'org.apache.kafka.common.serialization.Serdes$StringSerde');
      assert.equal(t.output[0]!.name, 'alerts-out');
      assert.match(t.output[0]!.valueSerde, fixture.form === 'latest' ? /LongSerde$/ : /StringSerde$/);
    });

    it('rule with or without datamodel', async () => {
      const r = await client(fixture).rules.get('r1');
      assert.equal(r.pdl, 'a=1');
      assert.equal('datamodel' in r, fixture.form !== 'latest');
    });

    it('rule and PDL test results as {matched, event}', async () => {
      const c = client(fixture);
      const rule = await c.testRule('r1', { a: 1 });
      assert.equal(rule.matched, true);
      assert.deepEqual(rule.event, fixture.form === 'earlier' ? null : { a: 1 });
      assert.deepEqual(await c.testPdl('a=2', { a: 1 }), { matched: false, event: null });
    });

    it(`refresh failure (${fixture.responses['GET /api/token/refresh']!.status}) ends the session`, async () => {
      const calls: string[] = [];
      let last: unknown = 'unset';
      const c = new WeirClient({
        baseUrl: 'https://weir.test',
        fetch: replay(fixture, calls),
        tokens: { access_token: 'a', refresh_token: 'r' },
        onTokens: (t) => {
          last = t;
        },
      });
      // /api/users answers 403 (expired access token): the client refreshes once, which fails.
      await assert.rejects(c.users(), SessionExpiredError);
      assert.deepEqual(calls, ['GET /api/users Bearer a', 'GET /api/token/refresh Bearer r']);
      assert.equal(last, undefined);
      assert.equal(c.tokens, undefined);
    });
  });
}

describe('token refresh', () => {
  it('an expired access token is refreshed once and the call repeated with the new one', async () => {
    const calls: string[] = [];
    const f = (async (input: string | URL | Request, init?: RequestInit) => {
      const auth = (init?.headers as Record<string, string>).authorization ?? '';
      const path = new URL(String(input)).pathname;
      calls.push(`${path} ${auth}`);
      if (path === '/api/token/refresh') return Response.json({ access_token: 'a2', refresh_token: 'r2' });
      if (auth === 'Bearer a2') return Response.json(['events']);
      return new Response(null, { status: 403 });
    }) as typeof fetch;
    const c = new WeirClient({
      baseUrl: 'https://weir.test/',
      fetch: f,
      tokens: { access_token: 'a1', refresh_token: 'r1' },
    });
    const [x, y] = await Promise.all([c.topics(), c.topics()]);
    assert.deepEqual(x, ['events']);
    assert.deepEqual(y, ['events']);
    assert.equal(calls.filter((c) => c.startsWith('/api/token/refresh')).length, 1);
    assert.deepEqual(c.tokens, { access_token: 'a2', refresh_token: 'r2' });
  });
});
