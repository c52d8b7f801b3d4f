/**
 * A server process of bench/api.ts and bench/node-memory.ts. `node` starts a real Weir node (local
 * store, HTTPS with its self-signed key store; the engine only with `streamThreads`) on the given broker and home; `ceiling` serves one
 * file's bytes over plain Node HTTPS with the node's key store: the most any Node HTTPS server can
 * do for that response on this machine. Sends `{ url }` to the parent when listening.
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { loadSettings, WeirNode } from '@weir/engine';

const [mode, arg] = process.argv.slice(2) as [string, string];
const options = JSON.parse(arg) as {
  bootstrap: string;
  home: string;
  body?: string;
  streamThreads?: number;
  /** More settings of the node (bench/alerts.ts: `weir.notify.enabled`). */
  settings?: Record<string, string>;
};

if (mode === 'node') {
  const settings = loadSettings(undefined, {}).with({
    'weir.home': options.home,
    'bootstrap.servers': options.bootstrap,
    'weir.broker.embedded': 'false',
    'server.port': '0',
    'server.address': '127.0.0.1',
    'weir.log.level': 'silent',
    'weir.metrics.port': '0',
    // The bench's fixture password ('admin-pw') predates the password policy, and one user drives the
    // load: the per-user rate limit (default 1,200 a minute) would measure the limiter, not the API.
    'weir.auth.password-min-length': '6',
    'weir.http.rate-limit-per-minute': '10000000',
    // bench/node-memory.ts runs the engine; bench/api.ts measures the API alone
    ...(options.streamThreads
      ? { 'num.stream.threads': String(options.streamThreads) }
      : { 'weir.engine.autostart': 'false' }),
    ...options.settings,
  });
  const node = await WeirNode.start(settings);
  process.send!({ url: node.url });
  const stop = () => void node.stop().then(() => process.exit(0));
  process.on('message', stop);
  // the bench went away: so does this server
  process.on('disconnect', stop);
} else {
  const tls = path.join(options.home, 'var', 'tls', 'weir.p12');
  const body = readFileSync(options.body!);
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };
  const server = https.createServer(
    { pfx: readFileSync(tls), passphrase: readFileSync(`${tls}.password`, 'utf8').trim() },
    (_req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    },
  );
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send!({ url: `https://localhost:${typeof address === 'object' && address ? address.port : 0}` });
  });
  process.on('message', () => server.close(() => process.exit(0)));
  process.on('disconnect', () => process.exit(0));
}
