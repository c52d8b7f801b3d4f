import { anyString, anyValue, hugeString, malformedJson, nastyStrings, prototypeKeys } from './mutations.ts';
import type { Rng } from './rng.ts';

/** A lookup upload: its bytes, the file name and media type the browser would send. */
export interface LookupUpload {
  readonly data: Buffer;
  readonly filename: string;
  readonly mimetype: string;
}

const validCsv = 'user,department,risk\nalice,finance,3\nbob,"sales, east",7\ncarol,"says ""hi""",-1.5\n';
const validJson = '[{"user":"alice","department":"finance","risk":3},{"user":"bob","tags":["a","b"],"risk":null}]';

function csvCell(rng: Rng): string {
  const v = rng.chance(0.5) ? anyString(rng) : String(rng.pick([0, -1, 1.5, 1e308, '007', '+1', '1e5', '', '""']));
  return rng.chance(0.3) ? `"${v.replace(/"/g, '""')}"` : v;
}

function csvText(rng: Rng): string {
  const r = rng.next();
  if (r < 0.25) {
    const columns = rng.int(1, 6);
    const header = Array.from({ length: columns }, () =>
      rng.chance(0.15) ? rng.pick(prototypeKeys) : rng.chance(0.1) ? '' : anyString(rng).slice(0, 30),
    );
    const rows = Array.from({ length: rng.int(0, 20) }, () =>
      Array.from({ length: rng.chance(0.8) ? columns : rng.int(0, 9) }, () => csvCell(rng)).join(','),
    );
    return [header.join(','), ...rows].join(rng.pick(['\n', '\r\n', '\r']));
  }
  let text = validCsv;
  for (let i = rng.int(1, 3); i > 0; i--) {
    const at = rng.int(0, text.length);
    text = rng.pick([
      () =>
        text.slice(0, at) +
        rng.pick(['"', ',', '\n', '\r', '\u0000', '""', '"a"b', '\ufeff', ';', '\t']) +
        text.slice(at),
      () => text.slice(0, at),
      () => text + Array.from({ length: rng.pick([1000, 50_000]) }, (_, j) => `u${j},d,${j}`).join('\n'),
      () => text + `${rng.pick(nastyStrings)},${hugeString(rng)},1\n`,
      () => text.replace('user', rng.pick([...prototypeKeys, 'risk', '', ' '])),
      () => `${'a,'.repeat(rng.pick([1000, 20_000]))}b\n1\n`,
      () => `"${'x'.repeat(rng.pick([10, 100_000]))}`,
    ])();
  }
  return text;
}

function jsonText(rng: Rng): string {
  const r = rng.next();
  if (r < 0.2) return malformedJson(rng, validJson);
  if (r < 0.5) {
    const rows = Array.from({ length: rng.int(0, 20) }, () =>
      rng.chance(0.9) ? anyValue(rng, 3) : rng.pick([1, 'x', null, [], true]),
    );
    return JSON.stringify(rng.chance(0.9) ? rows : anyValue(rng, 3));
  }
  const rows = JSON.parse(validJson) as Record<string, unknown>[];
  const pick = rng.int(0, 6);
  if (pick === 0) return `[{"__proto__":{"polluted":true},"user":"x"},{"constructor":{"prototype":{"polluted":true}}}]`;
  if (pick === 1)
    return JSON.stringify(Array.from({ length: rng.pick([1000, 50_000]) }, (_, i) => ({ user: `u${i}`, risk: i })));
  if (pick === 2) return `[${'['.repeat(rng.pick([99, 101, 10_000]))}${']'.repeat(rng.pick([99, 101]))}]`;
  if (pick === 3) return JSON.stringify([{ user: hugeString(rng) }, { [anyString(rng)]: anyString(rng) }]);
  if (pick === 4) return JSON.stringify({ rows });
  if (pick === 5) return JSON.stringify([...rows, anyValue(rng, 2)]);
  return JSON.stringify(rows.map((row) => ({ ...row, [rng.pick(prototypeKeys)]: anyValue(rng, 1) })));
}

/** A fuzzed lookup file: CSV or JSON, named and typed rightly, wrongly or not at all. */
export function lookupFile(rng: Rng): LookupUpload {
  const asJson = rng.chance(0.5);
  const text = asJson ? jsonText(rng) : csvText(rng);
  const data = rng.chance(0.05)
    ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
    : Buffer.from(text);
  const filename = rng.pick(
    asJson
      ? ['t.json', 'T.JSON', 'table', 't.csv', '', '../../x.json']
      : ['t.csv', 'table', 't.json', '', 'a\u0000.csv'],
  );
  const mimetype = rng.pick([
    '',
    'text/csv',
    'application/json',
    'application/octet-stream',
    'text/plain',
    'application/vnd+json',
    'x',
  ]);
  return { data, filename, mimetype };
}
