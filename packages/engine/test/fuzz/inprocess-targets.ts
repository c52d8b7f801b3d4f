import { writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { check, compile } from '@weir/pdl';
import { parseProperties } from '../../src/config/properties.ts';
import { loadSettings, settingDefinitions } from '../../src/config/settings.ts';
import { isWeirError } from '../../src/core/errors.ts';
import { parseLookupFile } from '../../src/resources/lookup-table.ts';
import { lookupFile } from './lookup-files.ts';
import { anyString, hugeString, nastyStrings } from './mutations.ts';
import { pdlText } from './pdl-texts.ts';
import type { Rng } from './rng.ts';

/**
 * An in-process fuzz target: inputs from a seeded generator, and a check that answers how the
 * input was taken ('accepted' or 'rejected', a rejection being the parser's own error with a
 * message) and throws for anything else (another exception, a wrong result).
 */
export interface InProcessTarget<I> {
  readonly name: string;
  generate(rng: Rng): I;
  run(input: I): 'accepted' | 'rejected';
  describe(input: I): string;
}

const event = {
  user: 'bob',
  port: 443,
  tags: ['vpn', 'ext'],
  proc: { path: 'C:\\Tools\\nc.exe' },
  a: { b: 2 },
  n: '7',
};

/** PDL: check() must answer (never throw) and a text that compiles must run on an event without throwing. */
export const pdlTarget: InProcessTarget<string> = {
  name: 'pdl',
  generate: pdlText,
  run(text) {
    const outcome = check(text);
    if (!outcome.result) {
      if (
        typeof outcome.error.message !== 'string' ||
        outcome.error.message === '' ||
        !(outcome.error.line >= 1) ||
        !(outcome.error.column >= 1)
      ) {
        throw new Error(`a syntax error without a message or position: ${JSON.stringify(outcome.error)}`);
      }
      return 'rejected';
    }
    const program = compile(text);
    program.run(structuredClone(event), { timestamp: 1_700_000_000_000 });
    program.feed(structuredClone(event), { timestamp: 1_700_000_000_000 });
    return 'accepted';
  },
  describe: (text) => JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text),
};

/** Lookup files: parseLookupFile returns rows (plain objects) or throws LookupFormatError with a message. */
export const lookupTarget: InProcessTarget<{ data: Buffer; filename: string; mimetype: string }> = {
  name: 'lookup files',
  generate: lookupFile,
  run(input) {
    let rows;
    try {
      rows = parseLookupFile(input.data, input.filename, input.mimetype);
    } catch (err) {
      if (isWeirError(err) && err.code === 'LOOKUP_FORMAT' && err.message !== '') return 'rejected';
      throw err;
    }
    if (!Array.isArray(rows)) throw new Error('rows that are not an array');
    for (const row of rows) {
      if (row === null || typeof row !== 'object' || Array.isArray(row))
        throw new Error(`a row that is not an object: ${JSON.stringify(row)}`);
      if (Object.getPrototypeOf(row) !== Object.prototype && Object.getPrototypeOf(row) !== null)
        throw new Error('a row with a changed prototype');
    }
    if (({} as Record<string, unknown>).polluted !== undefined) throw new Error('Object.prototype was polluted');
    return 'accepted';
  },
  describe: (input) =>
    `${input.filename} (${input.mimetype}, ${input.data.length} bytes): ${JSON.stringify(input.data.toString('utf8').slice(0, 200))}`,
};

const root = path.resolve(import.meta.dirname, '../../../..');
const shippedProperties = readFileSync(path.join(root, 'config', 'weir.properties'), 'utf8');
const settingKeys = Object.keys(settingDefinitions);

function propertiesText(rng: Rng): string {
  const lines = shippedProperties.split('\n');
  const r = rng.next();
  if (r < 0.3) {
    // valid-looking lines with odd values for real keys
    return Array.from(
      { length: rng.int(1, 6) },
      () =>
        `${rng.pick(settingKeys)}${rng.pick(['=', ': ', ' ', ' = '])}${rng.chance(0.5) ? anyString(rng) : rng.pick(['-1', '0', '1e9', 'true', 'yes', '${weir.home}', '${x}', '${weir.home}${weir.home}', '99999999999999999999'])}`,
    ).join(rng.pick(['\n', '\r\n', '\r']));
  }
  let text = lines.join('\n');
  for (let i = rng.int(1, 4); i > 0; i--) {
    const at = rng.int(0, text.length);
    text = rng.pick([
      () =>
        text.slice(0, at) +
        rng.pick(['\\', '\\\n', '\\u', '\\u12', '\\uzzzz', '=', ':', '#', '!', '\u0000', '\n', '${', '}', '\r']) +
        text.slice(at),
      () => text.slice(0, at),
      () => text + `\n${rng.pick(['padas.', 'weir.', 'ssl.', 'sasl.', ''])}${anyString(rng)}=${anyString(rng)}`,
      () => text + `\n${rng.pick(settingKeys)}=${rng.pick(nastyStrings)}`,
      () => text + '\n' + '\\'.repeat(rng.pick([1, 2, 3, 1001, 50_000])),
      () => text + '\n' + `a=b\\\n`.repeat(rng.pick([10, 1000, 20_000])),
      () => text + '\n' + hugeString(rng),
      () => text.replace(/=.*/, () => `=${'${weir.home}'.repeat(rng.pick([2, 100]))}`),
    ])();
  }
  return text;
}

/**
 * Properties files: parseProperties gives entries with line numbers; loading the file as the node
 * does gives settings or a SettingsError naming the key (with the file and line).
 */
export function propertiesTarget(dir: string): InProcessTarget<string> {
  const file = path.join(dir, 'fuzz.properties');
  return {
    name: 'properties files',
    generate: propertiesText,
    run(text) {
      const entries = parseProperties(text);
      for (const e of entries)
        if (!(e.line >= 1) || typeof e.key !== 'string')
          throw new Error(`an entry without its line: ${JSON.stringify(e)}`);
      writeFileSync(file, text);
      try {
        loadSettings(file, {});
      } catch (err) {
        if (isWeirError(err) && err.code === 'SETTINGS_INVALID' && err.message !== '') return 'rejected';
        throw err;
      }
      return 'accepted';
    },
    describe: (text) => JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text),
  };
}
