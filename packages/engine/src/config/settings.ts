import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseProperties, type PropertyEntry } from './properties.ts';
import { WeirError } from '../core/errors.ts';

/** Raised for a bad setting; the message names the key, where it was set and what is accepted. */
export class SettingsError extends WeirError {
  override name = 'SettingsError';
  readonly code = 'SETTINGS_INVALID';
}

interface SettingDef<T> {
  readonly default: string | undefined;
  readonly doc: string;
  readonly accepted: string;
  parse(raw: string): T | undefined;
}

function text(def: string | undefined, doc: string): SettingDef<string> {
  return { default: def, doc, accepted: 'any text', parse: (raw) => raw };
}
function integer(def: number, min: number, max: number, doc: string): SettingDef<number> {
  return {
    default: String(def),
    doc,
    accepted: `an integer from ${min} to ${max}`,
    parse: (raw) => (/^-?\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : undefined),
  };
}
function bool(def: boolean, doc: string): SettingDef<boolean> {
  return {
    default: String(def),
    doc,
    accepted: 'true or false',
    parse: (raw) => (raw === 'true' ? true : raw === 'false' ? false : undefined),
  };
}
function oneOf<const V extends string>(values: readonly V[], def: V, doc: string): SettingDef<V> {
  return {
    default: def,
    doc,
    accepted: values.join(', '),
    parse: (raw) => ((values as readonly string[]).includes(raw) ? (raw as V) : undefined),
  };
}

/** Comma-separated field names or dotted paths (blank entries dropped); undefined when a path has an empty part. */
function fieldList(raw: string): string[] | undefined {
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  return entries.some((e) => e.split('.').some((part) => part.trim() === '')) ? undefined : entries;
}

/**
 * Every engine setting: key, default, meaning. docs/configuration.md lists each one (a test checks).
 * `${key}` in a value is replaced by another setting's value.
 */
export const settingDefinitions = {
  'bootstrap.servers': text('localhost:9092', 'Kafka brokers, comma-separated host:port list.'),
  'weir.uuid': text(undefined, 'UUID of this node; generated on first start and kept in `${weir.home}/var/node.uuid`.'),
  'weir.application.id': text(
    'weir-engine',
    'Kafka Streams-style application id; the consumer group id of the nodes of group `default`.',
  ),
  'weir.home': text(
    '/opt/weir',
    'Folder holding all state of the node (config store, broker data, key store, node uuid). The environment variable `WEIR_HOME` overrides it.',
  ),
  'weir.group': text('default', 'Group of this node; topologies of the same group run on it.'),
  'weir.config.store': oneOf(
    ['local', 'kafka'] as const,
    'local',
    '`local`: embedded SQLite store; `kafka`: compacted topics shared by every node of the cluster.',
  ),
  'weir.config.location': text('${weir.home}/var/config', 'Folder of the local store.'),
  'weir.topic.prefix': text(
    'weir',
    'Prefix of the topics Weir owns (`<prefix>_nodes`, `<prefix>_rules`, … `<prefix>_alerts`). Keep `weir` in production; tests use it to keep their data apart.',
  ),
  'weir.node.heartbeat-seconds': integer(
    10,
    1,
    3600,
    'Interval at which a node refreshes its entry (`lastSeen`, `state`) in the node registry.',
  ),
  'weir.node.dead-after-seconds': integer(
    30,
    2,
    86400,
    'A node whose `lastSeen` is older than this is shown with `alive: false` in `GET /api/nodes`, and any admin may remove its record. At least twice `weir.node.heartbeat-seconds`.',
  ),
  'weir.broker.embedded': oneOf(
    ['auto', 'true', 'false'] as const,
    'auto',
    '`auto`: start the embedded Kafka broker when `bootstrap.servers` is unreachable; `true`: always start it (and use it); `false`: never.',
  ),
  'weir.broker.dir': text('${weir.home}/var/kafka', 'Data, logs and ports of the embedded broker.'),
  'weir.broker.port': integer(
    0,
    0,
    65535,
    'Port of the embedded broker; 0: the port of `bootstrap.servers` when it names this machine and the port is free, else a port picked once and kept.',
  ),
  'num.stream.threads': integer(10, 1, 256, 'Stream worker threads of this node.'),
  'processing.guarantee': oneOf(
    ['at_least_once', 'exactly_once_v2'] as const,
    'at_least_once',
    'Delivery guarantee of the stream runtime.',
  ),
  'commit.interval.ms': integer(
    0,
    0,
    60_000,
    "Commit cadence under `at_least_once`. 0 (default): a batch's input offsets are committed as soon as its output is acknowledged, beside the next writes (not in front of them), while at most 2,000 input records (one full batch) per stream thread are written and not committed, so after a crash at most that many are written twice. N: at most every N ms (fewer OffsetCommit requests; after a crash up to N ms of records are written twice). Under `exactly_once_v2` every batch is one transaction that commits its offsets.",
  ),
  'weir.stream.batch-target-ms': integer(
    5,
    0,
    1000,
    'The latency/throughput trade-off of the stream workers: how long a batch is meant to take through the process stage while a worker keeps up with its input. A batch is taken as soon as records wait (a record on an idle partition is processed at once) and holds at most the records the worker processes in this time (measured as it runs), so a record waits about this long at most behind the batch in front of it. When more records wait than a batch takes (a backlog), batches double in size at every batch (up to 8 times the target size, at most 2,000 records), for throughput, and come back to the target once the worker has caught up. Lower: lower latency, more, smaller batches; higher: fewer, larger batches. 0: every batch takes up to 2,000 records (the least overhead, the latency of a full batch).',
  ),
  'weir.stream.idle-close-seconds': integer(
    0,
    0,
    86400,
    'Idle close of correlation windows. 0 (default): windows advance and close only by the event times the stage has seen (stream time), so a replay gives the same alerts as the live stream, but an `emit=close` window stays open until a later event reaches its partition. N: after N seconds without records on a partition of a correlation stage, its stream time moves on with the wall clock, closing `emit=close` windows of an idle stream; alerts then depend on when events arrive, not only on their times.',
  ),
  'weir.stream.worker-heap-mb': integer(
    1024,
    0,
    65536,
    "Memory budget of each stream worker thread, in MB: the old-generation limit of its V8 heap (`resourceLimits.maxOldGenerationSizeMb`), so heaps stay flat under load instead of growing until V8's default limit (a share of the machine's memory) before it collects; its young generation is limited to 1/16 of it, between 8 and 64 MB (`maxYoungGenerationSizeMb`; 64 MB at the default). Lookup tables and their indexes are outside the heaps (shared memory, one copy per node). A worker that needs more stops with an error naming this setting (engine state ERROR); raise it for large correlation states or rule sets. 0: V8's defaults.",
  ),
  'weir.engine.autostart': bool(true, 'Start the stream engine with the node.'),
  'weir.metrics.enabled': bool(
    true,
    'Serve Prometheus metrics at `/metrics` on a separate plain-HTTP port (no token; bind it to a trusted address).',
  ),
  'weir.metrics.address': text('127.0.0.1', 'Address of the metrics port; the default keeps it on this machine.'),
  'weir.metrics.port': integer(9464, 0, 65535, 'Port of `/metrics` (0 picks a free port).'),
  'server.address': text('0.0.0.0', 'Address the API listens on.'),
  'server.port': integer(8999, 0, 65535, 'Port of the management API (0 picks a free port).'),
  'server.ssl.enabled': bool(true, 'Serve the API over HTTPS. `false` serves plain HTTP.'),
  'server.ssl.key-store': text(
    undefined,
    'PKCS12 key store of the API. When unset a self-signed one is generated under `${weir.home}/var/tls/` on first start.',
  ),
  'server.ssl.key-store-password': text(
    undefined,
    'Password of the key store. For a generated key store a random one is generated and kept beside it.',
  ),
  'server.ssl.key-store-type': oneOf(['PKCS12'] as const, 'PKCS12', 'Type of the key store; only PKCS12 is supported.'),
  'server.ssl.key-alias': text('weir', 'Alias of the key in the key store (used when generating it).'),
  'weir.http.body-limit': integer(
    16 * 1024 * 1024,
    1024,
    1024 * 1024 * 1024,
    'Largest request body in bytes; larger ones get 413.',
  ),
  'weir.lookup.max-bytes': integer(
    64 * 1024 * 1024,
    1024,
    1024 * 1024 * 1024,
    'Largest lookup file in bytes; larger ones get 413.',
  ),
  'weir.topics.consume.max-events': integer(
    100_000,
    1,
    10_000_000,
    'Largest `maxEvents` a topic consumer session may ask for; a larger value gets 400.',
  ),
  'weir.topics.consume.max-timeout-seconds': integer(
    3600,
    1,
    86400,
    'Largest `maxTimeoutSeconds` a topic consumer session may ask for; a larger value gets 400.',
  ),
  'weir.topics.consume.max-bytes': integer(
    64 * 1024 * 1024,
    1024,
    1024 * 1024 * 1024,
    'Bytes (keys + values) one consumer session keeps; it completes when it reaches them.',
  ),
  'weir.topics.consume.max-sessions-per-user': integer(
    5,
    1,
    1000,
    'Consumer sessions one user may hold at once (one per topic); another one gets 400 while all are running.',
  ),
  'weir.backtest.max-events': integer(
    1_000_000,
    1,
    1_000_000_000,
    'Events one backtest reads at most; a range that holds more is refused with 400 before it starts.',
  ),
  'weir.backtest.deadline-seconds': integer(
    600,
    1,
    86_400,
    'Wall time one backtest may run; past it the backtest fails with what it read so far named in its error.',
  ),
  'weir.backtest.max-per-user': integer(
    2,
    1,
    100,
    'Backtests one user may have queued or running at once; another one gets 429.',
  ),
  'weir.backtest.max-events-per-second': integer(
    0,
    0,
    100_000_000,
    "Events a second one backtest reads at most, so backtests leave CPU to the node's live stream and API. 0 (default): as fast as the node can.",
  ),
  'weir.topics.tail.max-per-user': integer(
    4,
    1,
    1000,
    'Live tails (server-sent events of a topic or of the alerts) one user may hold open at once; another one gets 400.',
  ),
  'weir.topics.masked-fields': {
    default: '',
    doc: 'Fields shown as `***` in what consume reads and live tails answer, for every user: comma-separated names (masked at any depth, and headers of that name) or dotted paths from the root (`user.ssn`); any case. Empty: none.',
    accepted: 'a comma-separated list of field names or dotted paths (e.g. password,user.ssn)',
    parse: fieldList,
  } satisfies SettingDef<string[]>,
  'weir.topics.consume.idle-seconds': integer(
    300,
    1,
    86400,
    'A consumer session not read for this long is closed and forgotten.',
  ),
  'weir.groups.lag.sample-seconds': integer(
    30,
    0,
    3600,
    "Seconds between two samples of every consumer group's lag, kept for the lag history (GET /api/consumer-groups/{id}/lag-history); 0 samples never.",
  ),
  'weir.groups.lag.keep-minutes': integer(
    60,
    1,
    7 * 24 * 60,
    'Minutes a lag sample is kept in memory; a group keeps at most keep-minutes × 60 / sample-seconds samples.',
  ),
  'weir.groups.lag.max-groups': integer(
    1000,
    1,
    100_000,
    'Most consumer groups with a lag history on a node; groups beyond it are listed but not sampled.',
  ),
  'weir.auth.access-token-seconds': integer(900, 10, 31 * 24 * 3600, 'Lifetime of access tokens.'),
  'weir.auth.refresh-token-seconds': integer(86400, 60, 365 * 24 * 3600, 'Lifetime of refresh tokens.'),
  'weir.auth.password-min-length': integer(
    12,
    1,
    1024,
    'Shortest password (in characters) accepted when a password is set or changed; existing passwords keep working. See docs/security.md.',
  ),
  'weir.auth.password-refuse-common': bool(
    true,
    'Refuse one of the most common passwords when a password is set or changed (false: only for moving over an installation whose scripts set such passwords). See docs/security.md.',
  ),
  'weir.auth.login-max-failures': integer(
    10,
    1,
    1_000_000,
    'Failed logins allowed per user and client address within the window before 429 `LOGIN_RATE_LIMITED` with `Retry-After`.',
  ),
  'weir.shutdown.timeout-seconds': integer(
    60,
    1,
    3600,
    'On SIGTERM/SIGINT, the longest the node waits for the batch in flight, the API requests in flight and the broker to finish; then it exits with status 1.',
  ),
  'weir.audit.retention-days': integer(
    365,
    1,
    36500,
    'How long audit entries are kept (local store: rows older are deleted; kafka store: `retention.ms` of `<prefix>_audit` when Weir creates it, and entries older are dropped from memory). See docs/security.md.',
  ),
  'weir.alerts.retention-days': integer(
    365,
    0,
    36500,
    "How long each node's alert index keeps an alert, counted from its event time (`_alert.time`); 0: no age limit. The alerts topic keeps its own retention. See docs/alerts.md.",
  ),
  'weir.alerts.max-count': integer(
    1_000_000,
    0,
    1_000_000_000,
    "Most alerts each node's alert index keeps; beyond it the oldest by event time are deleted (checked every minute); 0: no limit. See docs/alerts.md.",
  ),
  'weir.http.max-connections': integer(
    1000,
    1,
    1_000_000,
    'Open connections the API accepts at once; further ones are closed at once by the server.',
  ),
  'weir.http.headers-timeout-seconds': integer(
    20,
    1,
    3600,
    'A client must send the complete request headers within this time, else the connection gets 408 and is closed (a slow client cannot hold a connection).',
  ),
  'weir.http.request-timeout-seconds': integer(
    120,
    1,
    86400,
    'A client must send the complete request (headers and body) within this time, else 408 and the connection is closed.',
  ),
  'weir.http.rate-limit-per-minute': integer(
    1200,
    1,
    10_000_000,
    'API requests one login session (a token pair and the pairs refreshed from it; for login, refresh and init: one address) may make per minute on one node; more get 429 `API_RATE_LIMITED` with `Retry-After`. Health checks are not counted.',
  ),
  'weir.http.trusted-proxies': text(
    'loopback',
    "Proxies whose `X-Forwarded-For` gives the client address (comma-separated addresses or CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`; empty: none): the console's UI server, so that sign-in limits and audit entries see the browser's address. Add the UI server's address when it runs on another host.",
  ),
  'weir.lookup.max-total-bytes': integer(
    512 * 1024 * 1024,
    1024,
    64 * 1024 * 1024 * 1024,
    'Total size of all lookups (their rows as JSON) a node stores; an upload that would exceed it gets 413 `LOOKUP_TOTAL_TOO_LARGE`.',
  ),
  'weir.rules.max-count': integer(
    10_000,
    1,
    1_000_000,
    'Rules that may be stored; a create, bulk write or Sigma import beyond it gets 400 `RECORD_LIMIT`.',
  ),
  'weir.notify.enabled': bool(
    true,
    'Run the notifications on this node: it joins the consumer group `<weir.application.id>-notify` on the alerts topic and sends each alert to the notifiers whose matcher holds (docs/alerts.md, "Notifications"). The group shares the partitions among the nodes that run it, so each alert is sent once per notifier.',
  ),
  'weir.notify.max-attempts': integer(
    15,
    1,
    1000,
    'Attempts of one delivery (the first included) before it is dead-lettered on `<prefix>_notify_dlq`. With the default backoff, 15 attempts span about 9 minutes.',
  ),
  'weir.notify.backoff-initial-ms': integer(
    1000,
    1,
    3_600_000,
    'Wait after the first failed attempt of a delivery; doubled after each further one, up to `weir.notify.backoff-max-ms` (a longer `Retry-After` of the receiver, up to an hour, is honoured).',
  ),
  'weir.notify.backoff-max-ms': integer(60_000, 1, 3_600_000, 'Longest wait between two attempts of a delivery.'),
  'weir.notify.request-timeout-ms': integer(
    10_000,
    100,
    600_000,
    'A webhook request without an answer within this time fails (and is retried).',
  ),
  'weir.notify.max-in-flight': integer(
    1000,
    1,
    1_000_000,
    'Alerts read from the alerts topic whose deliveries have not all ended; at this many the node reads no further alerts until some end.',
  ),
  'weir.notify.ca-certificates': text(
    '',
    "PEM file(s), comma-separated, of CAs trusted for every receiver besides Node's default CAs (receivers with certificates of a private CA). A notifier's own `caCertificate` is trusted for it alone. Certificates are always verified.",
  ),
  'weir.log.level': oneOf(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
    'info',
    'Level of the JSON log lines written to stdout.',
  ),
  'weir.auth.login-window-seconds': integer(300, 1, 86400, 'Window of the failed-login limit.'),
  'weir.output.names': oneOf(
    ['weir', 'original'] as const,
    'weir',
    "Names of the fields the engine adds and of the alerts topic: `weir` (`_rule`, `_aggregation`, `_temporal`, `<prefix>_alerts`) or `original` (the original product's `padasRule`, `padasAggregation`, `padasTemporal`, `padas_alerts`); docs/compatibility.md.",
  ),
  'state.dir': text(
    '${weir.home}/var/state',
    "Accepted under the original's name (its `padas.properties` sets it); not used: correlation state lives in memory, backed by compacted changelog topics (docs/engine.md), so nothing is written there.",
  ),
  'schema.registry.url': text(
    undefined,
    "Accepted for the original's properties files; not used yet (Weir has no Schema Registry serdes).",
  ),
} as const satisfies Record<string, SettingDef<unknown>>;

export type SettingKey = keyof typeof settingDefinitions;
type ValueOf<K extends SettingKey> = Exclude<ReturnType<(typeof settingDefinitions)[K]['parse']>, undefined>;

/** Kafka client settings passed through unchanged to every client (security of the brokers). */
export const passthroughPrefixes = ['security.protocol', 'ssl.', 'sasl.'] as const;

export interface Settings {
  get<K extends SettingKey>(key: K): ValueOf<K>;
  /** Optional settings without a default. */
  optional(key: 'server.ssl.key-store' | 'server.ssl.key-store-password' | 'schema.registry.url'): string | undefined;
  /** `security.protocol`, `ssl.*`, `sasl.*` as written. */
  readonly kafkaClient: Readonly<Record<string, string>>;
  /** Where the settings came from (a file or "defaults"). */
  readonly source: string;
  /** Lines to print at start: keys read under their original (`padas.*`) names, values read as Weir's. */
  readonly warnings: readonly string[];
  /** A copy with some values replaced (tests, CLI flags). */
  with(overrides: Partial<Record<SettingKey, string>>): Settings;
}

/**
 * Loads settings from a properties file (or none), applies `WEIR_HOME`, validates every value and
 * resolves relative paths against the file's folder. Throws SettingsError naming the bad key.
 */
export function loadSettings(file?: string, env: NodeJS.ProcessEnv = process.env): Settings {
  const raw = new Map<string, { value: string; where: string }>();
  const kafkaClient: Record<string, string> = {};
  const warnings: string[] = [];
  const baseDir = file ? path.dirname(path.resolve(file)) : process.cwd();
  if (file) {
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
    } catch (err) {
      throw new SettingsError(`cannot read the configuration file ${file}: ${(err as Error).message}`);
    }
    for (const original of parseProperties(content)) {
      const where = `${file}:${original.line}`;
      const entry = originalSetting(original, where, warnings);
      if (passthroughPrefixes.some((p) => entry.key === p || (p.endsWith('.') && entry.key.startsWith(p)))) {
        kafkaClient[entry.key] = entry.value;
      } else if (entry.key in settingDefinitions) {
        raw.set(entry.key, { value: entry.value, where });
      } else {
        throw new SettingsError(
          `${where}: unknown setting '${entry.key}'; see docs/configuration.md for the accepted keys`,
        );
      }
    }
  }
  if (env.WEIR_HOME) raw.set('weir.home', { value: env.WEIR_HOME, where: 'WEIR_HOME' });
  return buildSettings(raw, kafkaClient, baseDir, file ?? 'defaults', warnings);
}

/**
 * The original product's properties read as Weir's (docs/compatibility.md): `padas.<x>` is
 * `weir.<x>` when that is a Weir setting; `padas.config.store=rocksdb` (its local store) is `local`;
 * a `classpath:` key store (inside its jar) is no key store, so one is generated. Each is a warning.
 */
function originalSetting(entry: PropertyEntry, where: string, warnings: string[]): PropertyEntry {
  let { key, value } = entry;
  if (key.startsWith('padas.') && `weir.${key.slice(6)}` in settingDefinitions) {
    key = `weir.${key.slice(6)}`;
    warnings.push(`${where}: '${entry.key}' is the original's name of '${key}'; read as '${key}' (rename it)`);
  }
  if (key === 'weir.config.store' && value === 'rocksdb') {
    value = 'local';
    warnings.push(`${where}: '${entry.key}=rocksdb' (the original's local store) is read as '${key}=local' (SQLite)`);
  }
  if (key === 'server.ssl.key-store' && value.startsWith('classpath:')) {
    warnings.push(
      `${where}: '${key}=${value}' names a key store inside the original's jar; ignored, a self-signed key store is generated`,
    );
    value = '';
  }
  return { ...entry, key, value };
}

function buildSettings(
  raw: Map<string, { value: string; where: string }>,
  kafkaClient: Record<string, string>,
  baseDir: string,
  source: string,
  warnings: readonly string[] = [],
): Settings {
  const values = new Map<string, unknown>();
  const resolving = new Set<string>();
  const resolve = (key: SettingKey): unknown => {
    if (values.has(key)) return values.get(key);
    if (resolving.has(key)) throw new SettingsError(`setting '${key}' refers to itself through \${...}`);
    resolving.add(key);
    const def: SettingDef<unknown> = settingDefinitions[key];
    const given = raw.get(key);
    // An empty value of a setting without default is unset (the original's template has `padas.uuid=`).
    const text = given?.value === '' && def.default === undefined ? undefined : (given?.value ?? def.default);
    let value: unknown;
    if (text !== undefined) {
      const expanded = text.replace(/\$\{([\w.-]+)\}/g, (_, ref: string) => {
        if (!(ref in settingDefinitions))
          throw new SettingsError(`${given?.where ?? key}: '${key}' refers to unknown setting '${ref}'`);
        return String(resolve(ref as SettingKey) ?? '');
      });
      value = def.parse(expanded);
      if (value === undefined) {
        throw new SettingsError(
          `${given?.where ?? 'default'}: invalid value '${expanded}' for '${key}'; accepted: ${def.accepted}`,
        );
      }
      if (isPathKey(key) && typeof value === 'string') value = path.resolve(baseDir, value);
    }
    resolving.delete(key);
    values.set(key, value);
    return value;
  };
  for (const key of Object.keys(settingDefinitions) as SettingKey[]) resolve(key);
  const settings: Settings = {
    get: (key) => values.get(key) as never,
    optional: (key) => values.get(key) as string | undefined,
    kafkaClient,
    source,
    warnings,
    with(overrides) {
      const next = new Map(raw);
      for (const [k, v] of Object.entries(overrides)) if (v !== undefined) next.set(k, { value: v, where: 'override' });
      return buildSettings(next, kafkaClient, baseDir, source, warnings);
    },
  };
  return settings;
}

function isPathKey(key: string): boolean {
  return (
    key === 'weir.home' ||
    key === 'weir.config.location' ||
    key === 'weir.broker.dir' ||
    key === 'server.ssl.key-store' ||
    key === 'state.dir'
  );
}

/** The node's uuid: `weir.uuid` when set, else the one kept under the home, generated on first start. */
export function nodeUuid(settings: Settings): string {
  const configured = settings.get('weir.uuid');
  if (configured) return configured;
  const file = path.join(settings.get('weir.home'), 'var', 'node.uuid');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const uuid = randomUUID();
  writeFileSync(file, uuid + '\n');
  return uuid;
}
