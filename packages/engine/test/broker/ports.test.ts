import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { chooseBrokerPort, freePort, localBootstrapPort, portFree } from '../../src/broker/ports.ts';

/** Holds a port on 127.0.0.1 (as another program would) until closed. */
async function occupy(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('bootstrap.servers on this machine names the embedded broker port; another host does not', () => {
  assert.equal(localBootstrapPort('localhost:9092'), 9092);
  assert.equal(localBootstrapPort('127.0.0.1:19092,other:9092'), 19092);
  assert.equal(localBootstrapPort('[::1]:9093'), 9093);
  assert.equal(localBootstrapPort('kafka.example.org:9092'), undefined);
});

test('the preferred port is used when free; when taken, another one is picked and the log says so', async () => {
  const free = await freePort();
  const lines: string[] = [];
  assert.equal(await chooseBrokerPort(free, undefined, (l) => lines.push(l)), free);
  assert.equal(lines.length, 0);

  const taken = await occupy();
  try {
    assert.equal(await portFree(taken.port), false);
    const saved = await freePort();
    const port = await chooseBrokerPort(taken.port, saved, (l) => lines.push(l));
    assert.equal(port, saved, 'the remembered port when it is free');
    assert.deepEqual(lines, [`port ${taken.port} of bootstrap.servers is taken by another program; the embedded Kafka broker listens on 127.0.0.1:${saved} instead`]);
    const other = await chooseBrokerPort(taken.port, taken.port, () => {});
    assert.notEqual(other, taken.port);
    assert.equal(await portFree(other), true);
  } finally {
    await taken.close();
  }
  // Without a preferred port (bootstrap.servers elsewhere): the remembered one, else a free one.
  assert.equal(await chooseBrokerPort(undefined, 12345), 12345);
});
