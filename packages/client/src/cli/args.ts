import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.ts';
import { outputFormats, type OutputFormat } from './output.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Flags every command takes. */
export const globalOptions = {
  server: { type: 'string' },
  insecure: { type: 'boolean' },
  ca: { type: 'string' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export interface CommandSpec {
  readonly usage: string;
  readonly summary: string;
  readonly options: Options;
  /** How many positional arguments it takes (after the command). */
  readonly min: number;
  readonly max: number;
  /** The formats its -o takes, when not table, json and yaml. */
  readonly outputs?: readonly string[];
}

export const commands: Record<string, CommandSpec> = {
  login: {
    usage: 'login --server URL [-u USER] [--password-stdin] [--insecure | --ca FILE]',
    summary: 'sign in and keep the token in the config dir',
    options: { username: { type: 'string', short: 'u' }, 'password-stdin': { type: 'boolean' } },
    min: 0,
    max: 0,
  },
  logout: { usage: 'logout', summary: 'forget the stored tokens', options: {}, min: 0, max: 0 },
  get: {
    usage: 'get <kind> [id] [-o table|json|yaml]',
    summary: 'list records of a kind, or one record',
    options: {},
    min: 1,
    max: 2,
  },
  describe: {
    usage: 'describe <kind> <id> [-o yaml|json]',
    summary: 'one record in full (YAML by default)',
    options: {},
    min: 2,
    max: 2,
  },
  apply: {
    usage: 'apply -f <file|folder>... [--dry-run] [--note TEXT]',
    summary: 'create or update what manifests describe (idempotent); --note is the change note',
    options: {
      filename: { type: 'string', short: 'f', multiple: true },
      'dry-run': { type: 'boolean' },
      note: { type: 'string' },
    },
    min: 0,
    max: 0,
  },
  delete: {
    usage: 'delete <kind> <id> [--note TEXT]',
    summary: 'delete a record',
    options: { note: { type: 'string' } },
    min: 2,
    max: 2,
  },
  history: {
    usage: 'history <kind> <id> [version] [-o table|json|yaml]',
    summary: 'the versions of a rule, task, pipeline or topology, or one version in full',
    options: {},
    min: 2,
    max: 3,
  },
  diff: {
    usage: 'diff <kind> <id> <from> [to] [-o json|yaml]',
    summary: 'what changed between two versions of a record (to: the latest by default)',
    options: {},
    min: 3,
    max: 4,
  },
  rollback: {
    usage: 'rollback <kind> <id> <version> [--note TEXT]',
    summary: 'store an earlier version of a record again (a new version)',
    options: { note: { type: 'string' } },
    min: 3,
    max: 3,
  },
  export: {
    usage: 'export [-f FILE] [-o yaml|json]',
    summary: 'the whole configuration as manifests (backup)',
    options: { filename: { type: 'string', short: 'f' } },
    min: 0,
    max: 0,
  },
  import: {
    usage: 'import -f <file|folder>... [--dry-run] [--note TEXT]',
    summary: 'restore an export (create or update every record)',
    options: {
      filename: { type: 'string', short: 'f', multiple: true },
      'dry-run': { type: 'boolean' },
      note: { type: 'string' },
    },
    min: 0,
    max: 0,
  },
  test: {
    usage: 'test rule|pdl|task|pipeline <id|pdl> -f EVENTS [--raw]',
    summary: 'run a rule, PDL, task or pipeline over events (NDJSON or a JSON array)',
    options: { filename: { type: 'string', short: 'f' }, raw: { type: 'boolean' } },
    min: 2,
    max: 2,
  },
  produce: {
    usage: 'produce <topic> [-f EVENTS] [--key-field F] [--key-serializer C] [--value-serializer C] [--offsets]',
    summary: 'write events to a topic (stdin by default); --offsets prints where each went',
    options: {
      filename: { type: 'string', short: 'f' },
      raw: { type: 'boolean' },
      offsets: { type: 'boolean' },
      'key-field': { type: 'string' },
      'key-serializer': { type: 'string' },
      'value-serializer': { type: 'string' },
    },
    min: 1,
    max: 1,
  },
  'reset-offsets': {
    usage: 'reset-offsets <group> --to earliest|latest|timestamp|offset [--timestamp T] [--offset N] [--topic T]...',
    summary: "move a consumer group's committed offsets (refused while it has members)",
    options: {
      to: { type: 'string' },
      timestamp: { type: 'string' },
      offset: { type: 'string' },
      topic: { type: 'string', multiple: true },
    },
    min: 1,
    max: 1,
  },
  consume: {
    usage:
      'consume <topic>|alerts [-f | -e] [--from earliest|latest] [--offset N] [--partition P] [--max N] [--timeout S] [--values]',
    summary: 'read messages as JSON lines; -f follows like tail -f; -e stops at the end',
    options: {
      follow: { type: 'boolean', short: 'f' },
      'until-end': { type: 'boolean', short: 'e' },
      from: { type: 'string' },
      offset: { type: 'string' },
      partition: { type: 'string' },
      max: { type: 'string' },
      timeout: { type: 'string' },
      values: { type: 'boolean' },
      'key-deserializer': { type: 'string' },
      'value-deserializer': { type: 'string' },
    },
    min: 1,
    max: 1,
  },
  engine: { usage: 'engine start|stop|state', summary: 'the stream engine of the node', options: {}, min: 1, max: 1 },
  nodes: { usage: 'nodes [-o table|json|yaml]', summary: 'the nodes of the cluster', options: {}, min: 0, max: 0 },
  diagnose: {
    usage: 'diagnose [-o table|json|yaml]',
    summary: 'list dangling references (a task naming a rule that does not exist, …); exit 1 when any',
    options: {},
    min: 0,
    max: 0,
  },
  alerts: {
    usage:
      'alerts list [--severity S]... [--min-severity S] [--status S]... [--rule R] [--assignee A] [--technique T]... [--field path=value]... [-q TEXT] [--from T] [--to T] [--limit N] [--all] | get <id> | ack <id>... [--note TEXT] [--assignee A] | close <id>... --resolution R [--note TEXT] | group --by rule|field:<path> [--from T] [--to T]',
    summary: "the node's alert store: list, read, acknowledge, close and group alerts",
    options: {
      severity: { type: 'string', multiple: true },
      'min-severity': { type: 'string' },
      status: { type: 'string', multiple: true },
      rule: { type: 'string' },
      assignee: { type: 'string' },
      technique: { type: 'string', multiple: true },
      field: { type: 'string', multiple: true },
      q: { type: 'string', short: 'q' },
      from: { type: 'string' },
      to: { type: 'string' },
      limit: { type: 'string' },
      all: { type: 'boolean' },
      note: { type: 'string' },
      resolution: { type: 'string' },
      by: { type: 'string' },
    },
    min: 1,
    max: Infinity,
  },
  silence: {
    usage:
      "silence list [--state pending|active|expired] | create --match 'field=value'... (--for 2h | --until T) [--from T] --comment TEXT | expire <id>",
    summary: 'silence alerts for a while (not notified; still stored and shown)',
    options: {
      state: { type: 'string' },
      match: { type: 'string', multiple: true },
      for: { type: 'string' },
      until: { type: 'string' },
      from: { type: 'string' },
      comment: { type: 'string' },
    },
    min: 1,
    max: 2,
  },
  backtest: {
    usage:
      'backtest --rules <folder|file>... (--events <file.ndjson|file.json> | --topic T (--from TIME --to TIME | --offsets P:START-END...)) [--expect FILE] [-o table|json|yaml|junit] [--junit FILE] [--first N] [--mapping NAME | --mapping-file F]',
    summary:
      'run rules (PDL, manifests, Sigma) over an events file here, or over a topic range through the server; check expectations (exit 1 when one fails)',
    options: {
      rules: { type: 'string', multiple: true },
      events: { type: 'string' },
      topic: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      offsets: { type: 'string', multiple: true },
      expect: { type: 'string' },
      junit: { type: 'string' },
      first: { type: 'string' },
      mapping: { type: 'string' },
      'mapping-file': { type: 'string' },
    },
    min: 0,
    max: 0,
    outputs: ['table', 'json', 'yaml', 'junit'],
  },
  explain: {
    usage: 'explain --rule <id|file.pdl> --event <file|-> [--ascii] [-o text|json]',
    summary:
      'why a rule did or did not match: the query tree with a truth value per node and the values seen (exit 1 when it did not match)',
    options: { rule: { type: 'string' }, event: { type: 'string' }, ascii: { type: 'boolean' } },
    min: 0,
    max: 0,
    outputs: ['text', 'json'],
  },
  lint: {
    usage: 'lint <file|folder>... [--topic T [--sample N]] [--strict] [-o table|json|yaml]',
    summary:
      "lint PDL files, manifests and Sigma YAML here, no server (--topic: the PDL by the server, fields against the topic's recent events): file:line:col severity code message (exit 1 on an error; --strict: on a warning too)",
    options: { strict: { type: 'boolean' }, topic: { type: 'string' }, sample: { type: 'string' } },
    min: 1,
    max: Infinity,
  },
  sigma: {
    usage: 'sigma convert|import <file|folder>... [--mapping NAME] [--mapping-file F] [--dry-run] [--note TEXT]',
    summary: 'convert Sigma rules to PDL here (convert), or on the server and store them (import)',
    options: {
      mapping: { type: 'string' },
      'mapping-file': { type: 'string' },
      'dry-run': { type: 'boolean' },
      note: { type: 'string' },
    },
    min: 2,
    max: Infinity,
  },
  completion: { usage: 'completion bash|zsh', summary: 'print a shell completion script', options: {}, min: 1, max: 1 },
  help: { usage: 'help [command]', summary: 'show help', options: {}, min: 0, max: 1 },
};

export interface ParsedCommand {
  readonly command: string;
  readonly positionals: string[];
  readonly values: Record<string, string | boolean | string[] | undefined>;
  readonly output: OutputFormat | undefined;
}

/** `weirctl <command> [arguments] [flags]`: flags may come anywhere after the command. Throws UsageError. */
export function parseCommandLine(argv: readonly string[]): ParsedCommand {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help')
    return { command: 'help', positionals: [], values: {}, output: undefined };
  if (first.startsWith('-'))
    throw new UsageError(`the command comes first: weirctl <command> [flags] (found ${first})`);
  const spec = commands[first];
  if (!spec) throw new UsageError(`unknown command '${first}' (one of ${Object.keys(commands).join(', ')})`);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...globalOptions, ...spec.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(
      `${first}: ${(err as Error).message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '')}`,
    );
  }
  const values = parsed.values as ParsedCommand['values'];
  if (values.help) return { command: 'help', positionals: [first], values: {}, output: undefined };
  const n = parsed.positionals.length;
  if (n < spec.min || n > spec.max) {
    throw new UsageError(
      `${first}: expected ${spec.min === spec.max ? spec.min : `${spec.min}${spec.max === Infinity ? ' or more' : ` to ${spec.max}`}`} argument(s), found ${n}: weirctl ${spec.usage}`,
    );
  }
  const output = values.output as string | undefined;
  const allowed = spec.outputs ?? outputFormats;
  if (output !== undefined && !allowed.includes(output)) {
    throw new UsageError(`-o ${output}: the output is one of ${allowed.join(', ')}`);
  }
  const common = outputFormats.includes(output as OutputFormat) ? (output as OutputFormat) : undefined;
  return { command: first, positionals: parsed.positionals, values, output: common };
}

/** A flag holding a non-negative integer; UsageError naming the flag otherwise. */
export function intFlag(values: ParsedCommand['values'], name: string): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d+$/.test(v))
    throw new UsageError(`--${name} must be a non-negative integer, found '${String(v)}'`);
  return Number(v);
}

export function helpText(command?: string): string {
  if (command && commands[command]) {
    const c = commands[command];
    return `weirctl ${c.usage}\n\n${c.summary}.\n\nGlobal flags: --server URL, --insecure, --ca FILE, -o table|json|yaml, -h.\nSee docs/cli.md.\n`;
  }
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  return `weirctl: the command line of Weir\n\nUsage: weirctl <command> [arguments] [flags]\n\nCommands:\n${Object.entries(
    commands,
  )
    .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
    .join(
      '\n',
    )}\n\nGlobal flags:\n  --server URL     the API (default: the one of weirctl login)\n  --insecure       accept any TLS certificate\n  --ca FILE        trust this CA certificate (PEM)\n  -o FORMAT        table, json or yaml\n\nExit codes: 0 ok, 1 failure, 2 usage.\n`;
}
