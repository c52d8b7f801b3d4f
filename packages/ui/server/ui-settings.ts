import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The UI server's settings (spec: Web UI settings): a JSON file, nested (`{"server": {"port": 9000}}`)
 * or with dotted keys (`{"server.port": 9000}`). Unknown keys and wrong types are refused with the
 * key and what was expected (docs/ui.md). Relative paths are resolved against the file's folder.
 */
export interface UiSettings {
  readonly 'server.host': string;
  readonly 'server.port': number;
  readonly 'server.ssl.key': string;
  readonly 'server.ssl.cert': string;
  /** `false` serves plain HTTP (behind a TLS-terminating proxy only). */
  readonly 'server.ssl.enabled': boolean;
  readonly 'api.host': string;
  readonly 'api.port': number;
  /** Whether the engine speaks HTTPS (its default). */
  readonly 'api.ssl.enabled': boolean;
  /** CA certificate (PEM) that signed the engine's certificate; without it a loopback engine's self-signed one is accepted. */
  readonly 'api.ssl.ca': string;
  /** Where the generated self-signed pair is kept (`${weir.home}/var/tls/ui-*.pem`). */
  readonly 'weir.home': string;
}

export const uiDefaults: UiSettings = {
  'server.host': '0.0.0.0',
  'server.port': 9000,
  'server.ssl.key': '',
  'server.ssl.cert': '',
  'server.ssl.enabled': true,
  'api.host': 'localhost',
  'api.port': 8999,
  'api.ssl.enabled': true,
  'api.ssl.ca': '',
  'weir.home': '/opt/weir',
};

const pathKeys = new Set(['server.ssl.key', 'server.ssl.cert', 'api.ssl.ca', 'weir.home']);

export class UiSettingsError extends Error {}

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, value);
  }
}

/** The settings of a file (or the defaults when none), with `overrides` (tests, WEIR_HOME) on top. */
export function loadUiSettings(file: string | undefined, overrides: Partial<UiSettings> = {}): UiSettings {
  const values: Record<string, unknown> = { ...uiDefaults };
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new UiSettingsError(`${file}: ${(err as Error).message}`, { cause: err });
    }
    const flat = new Map<string, unknown>();
    flatten(parsed, '', flat);
    for (const [key, value] of flat) {
      if (!(key in uiDefaults))
        throw new UiSettingsError(`${file}: unknown key '${key}' (known: ${Object.keys(uiDefaults).join(', ')})`);
      const expected = typeof uiDefaults[key as keyof UiSettings];
      const ok =
        expected === 'number'
          ? Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535
          : typeof value === expected;
      if (!ok)
        throw new UiSettingsError(
          `${file}: '${key}' must be ${expected === 'number' ? 'an integer from 0 to 65535' : `a ${expected}`}, found ${JSON.stringify(value)}`,
        );
      values[key] = pathKeys.has(key) && value !== '' ? path.resolve(path.dirname(file), value as string) : value;
    }
  }
  if (process.env.WEIR_HOME) values['weir.home'] = path.resolve(process.env.WEIR_HOME);
  return { ...(values as unknown as UiSettings), ...overrides };
}
