import type { ConsumedMessage } from './consumer-session.ts';

/**
 * Masking of the fields an admin lists in `weir.topics.masked-fields` (docs/configuration.md): what
 * the consume read and the live tails answer, for every user. A plain name (`password`) masks that
 * field at any depth of a JSON key or value, and a header of that name; a dotted path (`user.ssn`)
 * masks the field at that path from the root, looking through arrays (`users.ssn` masks the `ssn`
 * of each element of `users`). Names match in any case. A masked field keeps its key; its value
 * becomes `"***"`. A value that is JSON text comes back as compact JSON text when a field in it was
 * masked, as it was otherwise.
 */
export const maskText = '***';

type Masker = (m: ConsumedMessage) => ConsumedMessage;

/** A function that masks a message's key, value and headers, or undefined when nothing is listed. */
export function messageMasker(fields: readonly string[]): Masker | undefined {
  if (fields.length === 0) return undefined;
  const names = new Set(fields.filter((f) => !f.includes('.')).map((f) => f.toLowerCase()));
  const paths = fields.filter((f) => f.includes('.')).map((f) => f.toLowerCase().split('.'));
  const mask = (v: unknown) => maskValue(v, names, paths);
  return (m) => {
    const key = mask(m.key);
    const value = mask(m.value);
    const headers = m.headers && maskHeaders(m.headers, names);
    if (key === m.key && value === m.value && headers === m.headers) return m;
    return { ...m, key, value, ...(headers ? { headers } : {}) };
  };
}

function maskHeaders(headers: Record<string, string>, names: ReadonlySet<string>): Record<string, string> {
  if (!Object.keys(headers).some((k) => names.has(k.toLowerCase()))) return headers;
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, names.has(k.toLowerCase()) ? maskText : v]));
}

/** The value with the listed fields masked; the same value (===) when nothing was masked. */
export function maskValue(value: unknown, names: ReadonlySet<string>, paths: readonly string[][]): unknown {
  if (typeof value === 'string') {
    const t = value.trimStart();
    if (!t.startsWith('{') && !t.startsWith('[')) return value;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return value;
    }
    const masked = walk(parsed, names, paths);
    return masked === parsed ? value : JSON.stringify(masked);
  }
  return walk(value, names, paths);
}

/** `paths`: the rest of each dotted path that still applies here (from the root: all of them). */
function walk(v: unknown, names: ReadonlySet<string>, paths: readonly string[][]): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    let changed = false;
    const out = v.map((item) => {
      const m = walk(item, names, paths);
      if (m !== item) changed = true;
      return m;
    });
    return changed ? out : v;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
    const lower = k.toLowerCase();
    const here = paths.filter((p) => p[0] === lower);
    if (names.has(lower) || here.some((p) => p.length === 1)) {
      out[k] = maskText;
      changed = true;
      continue;
    }
    const m = walk(
      item,
      names,
      here.map((p) => p.slice(1)),
    );
    if (m !== item) changed = true;
    out[k] = m;
  }
  return changed ? out : v;
}
