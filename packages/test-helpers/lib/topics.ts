import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestNode } from './test-node.ts';

export const serdePackage = 'org.apache.kafka.common.serialization';
export const serializer = (type: string) => `${serdePackage}.${type}Serializer`;
export const deserializer = (type: string) => `${serdePackage}.${type}Deserializer`;

export function uniqueTopic(label: string): string {
  return `t-${label}-${randomBytes(4).toString('hex')}`;
}

export async function createTopic(
  t: TestNode,
  token: string,
  name: string,
  numberOfPartitions = 1,
  options: Record<string, string> = {},
): Promise<void> {
  const res = await t.call('POST', '/api/topics', {
    token,
    body: { name, numberOfPartitions, replicationFactor: 1, options },
  });
  assert.equal(res.status, 201, res.text);
}

export interface ConsumeRead {
  status: string;
  messages: { key: unknown; value: unknown; partition: number; offset: number; timestamp: number }[];
}

/** Reads the user's session of the topic until its status is no longer RUNNING (or the deadline). */
export async function readUntilDone(
  t: TestNode,
  token: string,
  topic: string,
  timeoutMs = 30_000,
): Promise<ConsumeRead> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.call('GET', `/api/topics/${topic}/consume`, { token });
    assert.equal(res.status, 200, res.text);
    const body = res.body as ConsumeRead;
    if (body.status !== 'RUNNING' || Date.now() > deadline) return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
