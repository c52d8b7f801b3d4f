import { send } from './fuzz-client.ts';

/**
 * What a node has stored, read through its API: every configuration list, the users, the topics,
 * the lookups, and the number of audit entries that record changes (left out: login and logout
 * entries, since a failed login is recorded by design; topic entries, since a topic create the broker
 * refuses is recorded as tried and failed by design — the topics themselves are compared). Two equal snapshots around rejected requests show
 * they changed nothing.
 */
export const snapshotSources: readonly string[] = [
  '/api/users',
  '/api/tasks',
  '/api/pipelines',
  '/api/topologies',
  '/api/rules',
  '/api/lookups',
  '/api/topics/list',
];

/** The last answer of each list, by URL: sent back as `If-None-Match`, so that an unchanged list (304) is not sent again. */
const lastAnswers = new Map<string, { etag: string; text: string }>();

async function get(url: string, token: string, path: string): Promise<string> {
  const last = lastAnswers.get(url + path);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (last) headers['if-none-match'] = last.etag;
  const res = await send(url, { method: 'GET', path, headers, label: 'snapshot' }, true);
  if (res.status === 304 && last) return last.text;
  if (res.status !== 200) throw new Error(`snapshot: GET ${path} answered ${res.status} ${res.text.slice(0, 300)}`);
  if (res.etag) lastAnswers.set(url + path, { etag: res.etag, text: res.text });
  return res.text;
}

async function auditTotal(url: string, token: string, kind?: string): Promise<number> {
  const text = await get(url, token, `/api/audit?limit=1${kind ? `&kind=${kind}` : ''}`);
  return (JSON.parse(text) as { total: number }).total;
}

export type Snapshot = ReadonlyMap<string, string>;

export async function snapshot(url: string, token: string): Promise<Snapshot> {
  const out = new Map<string, string>();
  const texts = await Promise.all(snapshotSources.map((p) => get(url, token, p)));
  snapshotSources.forEach((p, i) => out.set(p, texts[i]!));
  const [all, logins, sessions, topics] = await Promise.all(
    ['', 'login', 'session', 'topic'].map((kind) => auditTotal(url, token, kind || undefined)),
  );
  out.set('audit entries of changes', String(all! - logins! - sessions! - topics!));
  return out;
}

/** The sources whose content differs, each with a short excerpt of before and after. */
export function differences(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [key, value] of before) {
    const other = after.get(key);
    if (other !== value) out.push(`${key}: ${value.slice(0, 200)} → ${String(other).slice(0, 200)}`);
  }
  return out;
}
