/** bench/api.ts and bench/node-memory.ts: a server process (bench/api-server.ts) and plain HTTPS calls to it. */
import { fork, type ChildProcess } from 'node:child_process';
import https from 'node:https';

export interface Server {
  readonly child: ChildProcess;
  readonly url: string;
}

export function startServer(mode: 'node' | 'ceiling', options: object): Promise<Server> {
  const child = fork(new URL('./api-server.ts', import.meta.url), [mode, JSON.stringify(options)], {
    execArgv: [
      '--disable-warning=ExperimentalWarning',
      // WEIR_BENCH_SERVER_CPU_PROF=<dir>: a CPU profile of the server process, written when it stops
      ...(process.env.WEIR_BENCH_SERVER_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.WEIR_BENCH_SERVER_CPU_PROF}`]
        : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve({ child, url: m.url }));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

export async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.send('stop');
  await exited;
}

const agent = new https.Agent({ rejectUnauthorized: false });

/** A JSON body, or a Buffer sent as it is with `contentType`. */
export function call(
  url: string,
  method: string,
  body?: unknown,
  token?: string,
  contentType = 'application/json',
): Promise<{ status: number; text: string; etag?: string }> {
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method,
        agent,
        headers: {
          ...(payload ? { 'content-type': contentType, 'content-length': String(payload.length) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            etag: res.headers.etag,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The bench's admin (password 'admin-pw'), created by POST /api/init on a fresh node. */
export async function initAdmin(url: string): Promise<void> {
  const init = await call(`${url}/api/init`, 'POST', {
    name: 'Admin',
    username: 'admin',
    email: 'admin@example.com',
    password: 'admin-pw',
    roles: [{ name: 'admin' }],
  });
  if (init.status !== 201) throw new Error(`init: ${init.status} ${init.text}`);
}

/** Signs the bench's admin in: its access and refresh tokens. */
export async function signInAdmin(url: string): Promise<{ access_token: string; refresh_token: string }> {
  const login = await call(`${url}/api/login`, 'POST', { username: 'admin', password: 'admin-pw' });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  return JSON.parse(login.text) as { access_token: string; refresh_token: string };
}
