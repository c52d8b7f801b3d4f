import net from 'node:net';

/** A port that was free a moment ago on 127.0.0.1 (Kafka must advertise a real port, so 0 will not do). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** True when a TCP connection to host:port opens within `timeoutMs`. */
export function canConnect(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Parses `host:port[,host:port...]` as Kafka's bootstrap.servers does. */
export function parseBootstrap(servers: string): { host: string; port: number }[] {
  return servers
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => {
      const i = s.lastIndexOf(':');
      const host = i > 0 ? s.slice(0, i).replace(/^\[|\]$/g, '') : s;
      const port = i > 0 ? Number(s.slice(i + 1)) : 9092;
      return { host, port };
    });
}

/** True when any of the bootstrap servers accepts a TCP connection. */
export async function isReachable(servers: string, timeoutMs = 1000): Promise<boolean> {
  const results = await Promise.all(parseBootstrap(servers).map((s) => canConnect(s.host, s.port, timeoutMs)));
  return results.some(Boolean);
}
