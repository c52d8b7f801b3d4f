import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closeWithin, DeadlineExceeded, withDeadline } from '../../src/stream/deadline.ts';

const never = new Promise<never>(() => {});

test('a step done in time gives its outcome; one past its deadline fails naming the part under way', async () => {
  assert.equal(await withDeadline(Promise.resolve(7), 50, 'adding'), 7);
  await assert.rejects(withDeadline(Promise.reject(new Error('broken')), 50, 'adding'), /broken/);
  let step = 'opening the clients';
  const late = withDeadline(never, 20, () => step);
  step = 'joining the consumer group';
  await assert.rejects(late, (err: unknown) => {
    assert.ok(err instanceof DeadlineExceeded);
    assert.equal(err.message, 'joining the consumer group did not finish within 20 ms');
    return true;
  });
  assert.equal(new DeadlineExceeded('restoring c-0', 300_000).message, 'restoring c-0 did not finish within 300 s');
});

test('a close that hangs is left behind and said; a failed close is no news', async () => {
  const said: string[] = [];
  await closeWithin(never, 'the consumer', (m) => said.push(m), 20);
  await closeWithin(Promise.reject(new Error('gone')), 'the producer', (m) => said.push(m), 20);
  await closeWithin(Promise.resolve(), 'the admin client', (m) => said.push(m), 20);
  assert.deepEqual(said, ['closing the consumer did not finish within 20 ms']);
});
