/**
 * JSON paths as the message browser writes and reads them: `$.user.name`, `$.items[0].id`,
 * `$["odd key"]`. Reading also accepts the path without `$` (`user.name`, `items.0.id`).
 */
export type PathSegment = string | number;

const identifier = /^[A-Za-z_$][\w$]*$/;

/** The path of a node of a value, as text (`$` is the value itself). */
export function formatPath(path: readonly PathSegment[]): string {
  return (
    '$' +
    path
      .map((s) => (typeof s === 'number' ? `[${s}]` : identifier.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`))
      .join('')
  );
}

/** The segments of a typed path, or an error text saying where it is wrong. */
export function parsePath(text: string): PathSegment[] | string {
  let rest = text.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const out: PathSegment[] = [];
  let at = text.length - rest.length;
  while (rest) {
    let m: RegExpExecArray | null;
    if ((m = /^\[(\d+)\]/.exec(rest))) out.push(Number(m[1]));
    else if ((m = /^\["((?:[^"\\]|\\.)*)"\]/.exec(rest))) out.push(JSON.parse(`"${m[1]}"`) as string);
    else if ((m = /^\.?([^.[\]\s=~]+)/.exec(rest))) out.push(/^\d+$/.test(m[1]!) ? Number(m[1]) : m[1]!);
    else return `the path '${text}' is not valid at character ${at + 1}`;
    rest = rest.slice(m[0].length);
    at += m[0].length;
  }
  return out.length ? out : `the path '${text}' names no field`;
}

/** The node at the path ({found: false} when there is none); a number also reads a key of that text. */
export function atPath(value: unknown, path: readonly PathSegment[]): { found: boolean; value?: unknown } {
  let v = value;
  for (const s of path) {
    if (v === null || typeof v !== 'object') return { found: false };
    if (Array.isArray(v)) {
      if (typeof s !== 'number' || s >= v.length) return { found: false };
      v = v[s];
    } else {
      const key = String(s);
      if (!Object.hasOwn(v, key)) return { found: false };
      v = (v as Record<string, unknown>)[key];
    }
  }
  return { found: true, value: v };
}
