import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { stringify } from 'yaml';
import { WeirClient } from '../client.ts';
import type { ConsumedMessage } from '../types.ts';
import { applyManifests, describeError, exportManifests } from './apply.ts';
import { helpText, intFlag, type ParsedCommand } from './args.ts';
import { bashCompletion, zshCompletion } from './completion.ts';
import { readConfig, writeConfig } from './config.ts';
import { ReportedFailure, UsageError } from './errors.ts';
import { readEventsFile } from './events.ts';
import { kindByName, kindNames, type KindInfo } from './kinds.ts';
import { manifestFiles, readManifests } from './manifests.ts';
import { formatRecord, formatRecords, formatValue, table } from './output.ts';
import { deleteRecord, getRecord, listRecords, parseId } from './records.ts';
import { connection, openSession } from './session.ts';
import { silence } from './silence.ts';
import { diff, history, noteFlag, rollback, versionedKind } from './versions.ts';
import { alerts } from './alerts.ts';
import { backtest } from './backtest.ts';
import { explainCommand } from './explain.ts';
import { lint } from './lint.ts';
import { convertFiles, convertReport, loadMapping } from './sigma-convert.ts';
import { makeFetch } from './transport.ts';

export interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM: ends `consume -f`. */
  readonly signal: AbortSignal;
}

type Handler = (cmd: ParsedCommand, io: Io) => Promise<void>;

function kindArg(name: string): KindInfo {
  const kind = kindByName(name);
  if (!kind) throw new UsageError(`unknown kind '${name}' (one of ${kindNames.join(', ')})`);
  return kind;
}

function idArg(kind: KindInfo, text: string): string | number {
  const id = parseId(kind, text);
  if (typeof id === 'number' && Number.isNaN(id))
    throw new UsageError(`${kind.plural} have integer ids, found '${text}'`);
  return id;
}

async function readPassword(cmd: ParsedCommand, io: Io): Promise<string> {
  if (cmd.values['password-stdin']) return readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  if (io.env.WEIR_PASSWORD) return io.env.WEIR_PASSWORD;
  if (!process.stdin.isTTY)
    throw new UsageError('no password: give --password-stdin, WEIR_PASSWORD, or run in a terminal');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // Hide the typed characters: write the prompt once, then nothing while the user types.
  const rlOut = rl as unknown as { _writeToOutput: (s: string) => void };
  process.stderr.write('Password: ');
  rlOut._writeToOutput = () => {};
  const password = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stderr.write('\n');
  return password;
}

const login: Handler = async (cmd, io) => {
  const config = readConfig(io.env);
  const { server, insecure, ca } = connection(cmd, config);
  if (!server) throw new UsageError('login: give --server https://host:8999');
  if (!/^https?:\/\//.test(server)) throw new UsageError(`--server ${server}: give a URL such as https://host:8999`);
  const username = (cmd.values.username as string | undefined) ?? io.env.WEIR_USERNAME ?? config.username;
  if (!username) throw new UsageError('login: give -u USER');
  const password = await readPassword(cmd, io);
  const weir = new WeirClient({ baseUrl: server, fetch: makeFetch({ insecure, ca }) });
  const tokens = await weir.login(username, password);
  writeConfig(
    {
      server,
      ...(insecure ? { insecure } : {}),
      ...(ca ? { ca: (await import('node:path')).resolve(ca) } : {}),
      username,
      tokens,
    },
    io.env,
  );
  io.err(`Logged in to ${server} as ${username}\n`);
};

const logout: Handler = async (_cmd, io) => {
  const config = readConfig(io.env);
  delete config.tokens;
  writeConfig(config, io.env);
  io.err('Logged out\n');
};

const get: Handler = async (cmd, io) => {
  const { weir } = openSession(cmd, io.env);
  const kind = kindArg(cmd.positionals[0]!);
  const format = cmd.output ?? 'table';
  if (cmd.positionals[1] !== undefined) {
    io.out(formatRecord(kind, await getRecord(weir, kind, idArg(kind, cmd.positionals[1])), format));
  } else {
    io.out(formatRecords(kind, await listRecords(weir, kind), format));
  }
};

const describe: Handler = async (cmd, io) => {
  const { weir } = openSession(cmd, io.env);
  const kind = kindArg(cmd.positionals[0]!);
  const record = await getRecord(weir, kind, idArg(kind, cmd.positionals[1]!));
  if (cmd.output === 'json') return io.out(formatRecord(kind, record, 'json'));
  io.out(formatRecord(kind, record, 'yaml'));
  const related = await references(weir, kind, record);
  if (related.length) io.out(`${related.map((r) => `# ${r}`).join('\n')}\n`);
};

/** What a record names and what names it, as YAML comments under `describe` (so the output stays a valid spec). */
async function references(weir: WeirClient, kind: KindInfo, record: Record<string, unknown>): Promise<string[]> {
  const names = <T extends { id: unknown; name: unknown }>(all: T[], ids: unknown) =>
    (Array.isArray(ids) ? ids : [])
      .map((id) => {
        const r = all.find((x) => x.id === id);
        return r
          ? `${String(id)} ${String(r.name)}${'function' in r ? ` (${String(r.function)})` : ''}`
          : `${String(id)} (missing)`;
      })
      .join(', ');
  switch (kind.kind) {
    case 'Pipeline':
      return [`tasks: ${names(await weir.tasks.list(), record.tasks)}`];
    case 'Topology':
      return [`pipelines: ${names(await weir.pipelines.list(), record.pipelines)}`];
    case 'Task': {
      const users = (await weir.pipelines.list()).filter((p) => p.tasks.includes(record.id as number));
      return [`used by pipelines: ${users.map((p) => `${p.id} ${p.name}`).join(', ') || 'none'}`];
    }
    case 'Rule': {
      const users = (await weir.tasks.list()).filter(
        (t) => Array.isArray(t.definition.rules) && (t.definition.rules as unknown[]).includes(record.id),
      );
      return [`used by tasks: ${users.map((t) => `${t.id} ${t.name}`).join(', ') || 'none'}`];
    }
    default:
      return [];
  }
}

const del: Handler = async (cmd, io) => {
  const { weir } = openSession(cmd, io.env);
  const kind = kindArg(cmd.positionals[0]!);
  const id = idArg(kind, cmd.positionals[1]!);
  const note = noteFlag(cmd);
  if (note !== undefined) versionedKind('delete --note', kind.plural);
  await deleteRecord(weir, kind, id, note);
  io.out(`${kind.kind.toLowerCase()}/${id} deleted\n`);
};

const apply: Handler = async (cmd, io) => {
  const targets = cmd.values.filename as string[] | undefined;
  if (!targets?.length) throw new UsageError(`${cmd.command}: give -f <file|folder> (several allowed; - for stdin)`);
  const manifests = readManifests(targets.flatMap((t) => (t === '-' ? ['-'] : manifestFiles([t]))));
  if (!manifests.length) throw new UsageError(`${cmd.command}: no manifests in ${targets.join(', ')}`);
  const note = noteFlag(cmd);
  const { weir } = openSession(cmd, io.env);
  const { counts } = await applyManifests(weir, manifests, cmd.values['dry-run'] === true, io.out, io.err, note);
  io.err(
    `${counts.created} created, ${counts.configured} configured, ${counts.unchanged} unchanged, ${counts.failed} failed${cmd.values['dry-run'] ? ' (dry run: nothing written)' : ''}\n`,
  );
  if (counts.failed) throw new ReportedFailure(`${counts.failed} failed`);
};

const exportAll: Handler = async (cmd, io) => {
  const { weir, server } = openSession(cmd, io.env);
  const manifests = await exportManifests(weir);
  const text =
    cmd.output === 'json'
      ? `${JSON.stringify(manifests, null, 2)}\n`
      : `# weirctl export of ${server} at ${new Date().toISOString()}\n${manifests.map((m) => stringify(m)).join('---\n')}`;
  const file = cmd.values.filename as string | undefined;
  if (file) {
    (await import('node:fs')).writeFileSync(file, text, { mode: 0o600 });
    io.err(`${manifests.length} records written to ${file}\n`);
  } else {
    io.out(text);
  }
};

const test: Handler = async (cmd, io) => {
  const [what, target] = cmd.positionals as [string, string];
  if (!['rule', 'pdl', 'task', 'pipeline'].includes(what))
    throw new UsageError(`test: rule, pdl, task or pipeline, found '${what}'`);
  const file = cmd.values.filename as string | undefined;
  if (!file) throw new UsageError('test: give -f EVENTS (NDJSON or a JSON array; - for stdin)');
  const events = readEventsFile(file, cmd.values.raw === true);
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (what === 'rule' || what === 'pdl') {
    const bad = events.find((e) => !isObject(e.value));
    if (bad) throw new UsageError(`${bad.where}: a ${what} is tested on JSON objects, found ${bad.text.slice(0, 60)}`);
  }
  let id: number | undefined;
  if (what === 'task' || what === 'pipeline') {
    if (!/^\d+$/.test(target)) throw new UsageError(`test ${what}: ${what}s have integer ids, found '${target}'`);
    id = Number(target);
  }
  const { weir } = openSession(cmd, io.env);
  let matched = 0;
  const warnings = new Set<string>();
  for (const [index, e] of events.entries()) {
    if (what === 'rule' || what === 'pdl') {
      const r =
        what === 'rule'
          ? await weir.testRule(target, e.value as Record<string, unknown>)
          : await weir.testPdl(target, e.value as Record<string, unknown>);
      if (r.matched) matched++;
      io.out(`${JSON.stringify({ index, matched: r.matched, event: r.event ?? null })}\n`);
    } else {
      const outcome =
        what === 'task' ? await weir.testTaskOutcome(id!, e.text) : await weir.testPipelineOutcome(id!, e.text);
      if (outcome.result !== null) matched++;
      outcome.warnings.forEach((w) => warnings.add(w));
      io.out(`${JSON.stringify({ index, result: outcome.result })}\n`);
    }
  }
  // Once, after the results: the same skipped rule holds for every event.
  for (const w of warnings) io.err(`warning: ${w}\n`);
  io.err(
    what === 'rule' || what === 'pdl'
      ? `${events.length} events, ${matched} matched\n`
      : `${events.length} events, ${matched} with a result\n`,
  );
};

const produce: Handler = async (cmd, io) => {
  const topic = cmd.positionals[0]!;
  const events = readEventsFile((cmd.values.filename as string | undefined) ?? '-', cmd.values.raw === true);
  const keyField = cmd.values['key-field'] as string | undefined;
  const messages = events.map((e) => {
    if (keyField === undefined) return { value: e.value };
    const obj = e.value && typeof e.value === 'object' ? (e.value as Record<string, unknown>) : undefined;
    if (!obj || !(keyField in obj)) throw new UsageError(`${e.where}: no field '${keyField}' for the key`);
    const k = obj[keyField];
    return { key: typeof k === 'string' ? k : JSON.stringify(k), value: e.value };
  });
  const { weir } = openSession(cmd, io.env);
  const batch = 500;
  for (let i = 0; i < messages.length; i += batch) {
    const res = await weir.produce(
      topic,
      {
        ...(cmd.values['key-serializer'] ? { keySerializer: cmd.values['key-serializer'] as string } : {}),
        ...(cmd.values['value-serializer'] ? { valueSerializer: cmd.values['value-serializer'] as string } : {}),
        messages: messages.slice(i, i + batch),
      },
      { offsets: cmd.values.offsets === true },
    );
    if (res.result !== 'success')
      throw new Error(`produce to ${topic} failed after ${i} messages: ${res.message ?? res.result}`);
    // --offsets: one line per message, in the input's order: where it was written
    for (const o of res.offsets ?? []) io.out(`${JSON.stringify({ partition: o.partition, offset: o.offset })}\n`);
  }
  io.err(`${messages.length} messages produced to ${topic}\n`);
};

const consume: Handler = async (cmd, io) => {
  const topic = cmd.positionals[0]!;
  const from = cmd.values.from as string | undefined;
  if (from !== undefined && from !== 'earliest' && from !== 'latest')
    throw new UsageError(`--from earliest or latest, found '${from}'`);
  const startOffset = intFlag(cmd.values, 'offset');
  const partition = intFlag(cmd.values, 'partition');
  const max = intFlag(cmd.values, 'max');
  const timeout = intFlag(cmd.values, 'timeout');
  if (from !== undefined && startOffset !== undefined) throw new UsageError('give --from or --offset, not both');
  const untilEnd = cmd.values['until-end'] === true;
  if (untilEnd && cmd.values.follow) throw new UsageError('give -f (follow) or -e (stop at the end), not both');
  const deser = {
    ...(cmd.values['key-deserializer'] ? { keyDeserializer: cmd.values['key-deserializer'] as string } : {}),
    ...(cmd.values['value-deserializer'] ? { valueDeserializer: cmd.values['value-deserializer'] as string } : {}),
  };
  const position =
    startOffset !== undefined
      ? { startOffset }
      : { offset: (from ?? (cmd.values.follow ? 'latest' : 'earliest')) as 'earliest' | 'latest' };
  const print = (m: ConsumedMessage) => {
    if (!cmd.values.values) return io.out(`${JSON.stringify(m)}\n`);
    let v: unknown = m.value;
    if (typeof v === 'string') {
      try {
        v = JSON.parse(v);
      } catch {
        /* not JSON: the text */
      }
    }
    io.out(`${JSON.stringify(v)}\n`);
  };
  const { weir } = openSession(cmd, io.env);
  if (cmd.values.follow) {
    const stop = new AbortController();
    io.signal.addEventListener('abort', () => stop.abort(), { once: true });
    let n = 0;
    const reason = await weir.tail(
      topic === 'alerts' ? undefined : topic,
      {
        ...position,
        ...(partition !== undefined ? { partition } : {}),
        ...deser,
        ...(timeout ? { maxSeconds: timeout } : {}),
      },
      (m) => {
        print(m);
        if (max !== undefined && ++n >= max) stop.abort();
      },
      stop.signal,
    );
    if (!stop.signal.aborted && reason !== 'maxSeconds reached' && reason !== 'closed')
      throw new Error(`the tail ended: ${reason}`);
    return;
  }
  const name = topic === 'alerts' ? 'weir_alerts' : topic;
  await weir.consume(name, {
    ...position,
    ...(partition !== undefined ? { partition } : {}),
    ...deser,
    maxEvents: max ?? 1000,
    maxTimeoutSeconds: timeout ?? 5,
    ...(untilEnd ? { untilEnd: true } : {}),
  });
  let index = 0;
  for (;;) {
    const read = await weir.consumeRead(name, index);
    read.messages.forEach(print);
    index += read.messages.length;
    if (read.status !== 'RUNNING' && read.status !== 'CREATED') {
      if (read.status !== 'COMPLETED') throw new Error(`the consumer stopped: ${read.status}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
};

const engine: Handler = async (cmd, io) => {
  const action = cmd.positionals[0]!;
  const { weir } = openSession(cmd, io.env);
  const state =
    action === 'state'
      ? await weir.engineState()
      : action === 'start'
        ? await weir.engineStart()
        : action === 'stop'
          ? await weir.engineStop()
          : undefined;
  if (!state) throw new UsageError(`engine: start, stop or state, found '${action}'`);
  io.out(cmd.output && cmd.output !== 'table' ? formatValue(state, cmd.output) : `${state.states.join(' ')}\n`);
};

const nodes: Handler = async (cmd, io) => get({ ...cmd, positionals: ['nodes'] }, io);

/** `diagnose`: the dangling references of the configuration; exit 1 when there are any (for scripts and CI). */
const diagnose: Handler = async (cmd, io) => {
  const { weir } = openSession(cmd, io.env);
  const found = await weir.danglingReferences();
  if (cmd.output && cmd.output !== 'table') io.out(formatValue(found, cmd.output));
  else if (found.count > 0)
    io.out(
      table(
        ['FROM', 'FIELD', 'MISSING'],
        found.references.map((r) => [`${r.from.kind}/${r.from.id} ${r.from.name}`, r.field, `${r.to.kind}/${r.to.id}`]),
      ),
    );
  if (found.topicsError !== undefined) io.err(`warning: ${found.topicsError}\n`);
  if (found.count === 0) return io.err('no dangling references\n');
  io.err(`${found.count} dangling reference(s)\n`);
  throw new ReportedFailure('diagnose');
};

const sigma: Handler = async (cmd, io) => {
  const [action, ...targets] = cmd.positionals;
  if (action !== 'import' && action !== 'convert') throw new UsageError(`sigma: convert or import, found '${action}'`);
  const files = manifestFiles(targets);
  if (!files.length) throw new UsageError(`sigma ${action}: no .yml/.yaml files in ${targets.join(', ')}`);
  if (action === 'convert') {
    if (cmd.values.note !== undefined)
      throw new UsageError('sigma convert: --note is for import (convert stores nothing)');
    return sigmaConvert(cmd, io, files);
  }
  const note = noteFlag(cmd);
  if (cmd.values['mapping-file'] !== undefined)
    throw new UsageError('sigma import: --mapping-file is for convert; the server takes a built-in --mapping');
  const { extra } = openSession(cmd, io.env);
  let failed = 0;
  const rows: unknown[][] = [];
  const all: unknown[] = [];
  for (const file of files) {
    const yaml = readFileSync(file, 'utf8');
    const r = await extra.sigmaImport(
      {
        yaml,
        ...(cmd.values.mapping ? { mapping: cmd.values.mapping as string } : {}),
        dryRun: cmd.values['dry-run'] === true,
      },
      note,
    );
    failed += r.failed;
    all.push({ file, ...r });
    for (const x of r.results)
      rows.push([
        file,
        x.document,
        x.status,
        x.id ?? '',
        x.title ?? '',
        x.reason ? `${x.path ?? ''} ${x.reason}`.trim() : '',
      ]);
  }
  io.out(
    cmd.output && cmd.output !== 'table'
      ? formatValue(all, cmd.output)
      : table(['FILE', 'DOC', 'STATUS', 'RULE', 'TITLE', 'REASON'], rows),
  );
  if (failed) {
    io.err(`${failed} Sigma document(s) could not be converted\n`);
    throw new ReportedFailure('sigma');
  }
};

/** `sigma convert`: offline, with the converter the server uses; exit 1 when a document could not be converted. */
function sigmaConvert(cmd: ParsedCommand, io: Io, files: string[]): void {
  const mapping = loadMapping(
    cmd.values.mapping as string | undefined,
    cmd.values['mapping-file'] as string | undefined,
  );
  const rows = convertFiles(files, mapping);
  io.out(cmd.output && cmd.output !== 'table' ? formatValue(rows, cmd.output) : convertReport(rows));
  const failed = rows.filter((r) => r.status === 'error').length;
  if (failed) {
    io.err(`${failed} Sigma document(s) could not be converted\n`);
    throw new ReportedFailure('sigma');
  }
}

const resetTargets = ['earliest', 'latest', 'timestamp', 'offset'] as const;

/** `reset-offsets <group> --to …`: the API answers the new offsets; a group with members is refused (400). */
const resetOffsets: Handler = async (cmd, io) => {
  const { weir } = openSession(cmd, io.env);
  const to = cmd.values.to as string | undefined;
  if (!to || !(resetTargets as readonly string[]).includes(to))
    throw new UsageError(`reset-offsets: --to must be one of ${resetTargets.join(', ')}, found '${to ?? ''}'`);
  const rawTime = cmd.values.timestamp as string | undefined;
  let timestamp: number | undefined;
  if (rawTime !== undefined) {
    timestamp = /^\d+$/.test(rawTime) ? Number(rawTime) : Date.parse(rawTime);
    if (Number.isNaN(timestamp))
      throw new UsageError(`--timestamp must be milliseconds since the epoch or an ISO 8601 time, found '${rawTime}'`);
  }
  const offset = intFlag(cmd.values, 'offset');
  const topics = cmd.values.topic as string[] | undefined;
  const result = await weir.resetOffsets(cmd.positionals[0]!, {
    to: to as (typeof resetTargets)[number],
    ...(timestamp === undefined ? {} : { timestamp }),
    ...(offset === undefined ? {} : { offset }),
    ...(topics ? { topics } : {}),
  });
  const format = cmd.output ?? 'table';
  if (format === 'table')
    io.out(
      table(
        ['TOPIC', 'PARTITION', 'OFFSET'],
        result.offsets.map((o) => [o.topic, String(o.partition), String(o.offset)]),
      ),
    );
  else io.out(format === 'json' ? `${JSON.stringify(result, null, 2)}\n` : stringify(result));
};

const completion: Handler = async (cmd, io) => {
  const shell = cmd.positionals[0];
  if (shell === 'bash') io.out(bashCompletion());
  else if (shell === 'zsh') io.out(zshCompletion());
  else throw new UsageError(`completion: bash or zsh, found '${shell}'`);
};

const help: Handler = async (cmd, io) => io.out(helpText(cmd.positionals[0]));

export const handlers: Record<string, Handler> = {
  login,
  logout,
  get,
  describe,
  delete: del,
  history,
  diff,
  rollback,
  apply,
  import: apply,
  export: exportAll,
  test,
  produce,
  consume,
  'reset-offsets': resetOffsets,
  engine,
  nodes,
  diagnose,
  sigma,
  backtest: async (cmd, io) => backtest(cmd, io),
  explain: explainCommand,
  lint,
  alerts,
  silence,
  completion,
  help,
};

export { describeError };
