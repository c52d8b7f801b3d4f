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

/** True when `port` can be listened on at 127.0.0.1 now (the embedded broker's listener address). */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The embedded broker's port when `bootstrap.servers` names this machine: its port when free
 * (`localhost:9092` → 9092, so Kafka tools work as configured); undefined for another host.
 */
export function localBootstrapPort(servers: string): number | undefined {
  const first = parseBootstrap(servers)[0];
  if (!first || !['localhost', '127.0.0.1', '::1'].includes(first.host)) return undefined;
  return Number.isInteger(first.port) && first.port > 0 && first.port < 65536 ? first.port : undefined;
}

/**
 * The embedded broker's port: the preferred one (from bootstrap.servers) when free; else the
 * remembered one when free; else a free one. When the preferred port is taken, says so with `log`.
 */
export async function chooseBrokerPort(preferred: number | undefined, saved: number | undefined, log?: (line: string) => void): Promise<number> {
  if (preferred === undefined) return saved ?? (await freePort());
  if (await portFree(preferred)) return preferred;
  const port = saved !== undefined && saved !== preferred && (await portFree(saved)) ? saved : await freePort();
  log?.(`port ${preferred} of bootstrap.servers is taken by another program; the embedded Kafka broker listens on 127.0.0.1:${port} instead`);
  return port;
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
