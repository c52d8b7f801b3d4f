import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { SettingKey } from '@weir/engine';
import type { TestNode } from './test-node.ts';

/** Settings that give a test node its own consumer group and its own weir_* topics. */
export function isolatedEngine(label: string): Partial<Record<SettingKey, string>> {
  const id = `${label}-${randomBytes(4).toString('hex')}`;
  return { 'weir.application.id': `weir-test-${id}`, 'weir.topic.prefix': `weirtest_${id.replace(/-/g, '_')}` };
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function waitForRunning(t: TestNode, token: string): Promise<void> {
  await waitFor('the engine to run', async () => {
    const res = await t.call('GET', '/api/engine/state', { token });
    return (res.body as { states: string[] }).states.every((s) => s === 'RUNNING');
  });
}

/** Creates configuration records through the API (asserting 201). */
export async function post(t: TestNode, token: string, path: string, body: unknown): Promise<void> {
  const res = await t.call('POST', path, { token, body });
  assert.equal(res.status, 201, `${path}: ${res.text}`);
}
