import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Mapping } from '@weir/sigma';
import { intFlag, type ParsedCommand } from './args.ts';
import { readEvents, readText } from './backtest-events.ts';
import { checkExpectations, parseExpectations, type CheckOutcome, type Expectations } from './backtest-expectations.ts';
import { loadRules, ruleFiles } from './backtest-rules.ts';
import { Backtest, type BacktestResult, type MatchPosition } from './backtest-run.ts';
import { runOnServer, sourceOf, type ServerBacktest } from './backtest-server.ts';
import { ReportedFailure, UsageError } from './errors.ts';
import { junitXml } from './junit.ts';
import { formatValue, table } from './output.ts';
import { openSession } from './session.ts';
import { loadMapping } from './sigma-convert.ts';

interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  /** For a backtest through a server (the session's config; SIGINT cancels it). */
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

const position = (p: MatchPosition): string =>
  'line' in p ? String(p.line) : 'index' in p ? `[${p.index}]` : 'offset' in p ? `${p.partition}:${p.offset}` : 'end';

function notes(r: BacktestResult['rules'][number]): string {
  return [
    r.evaluationErrors ? `${r.evaluationErrors} evaluation error(s)` : '',
    r.lateEvents ? `${r.lateEvents} late event(s) dropped` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/** The table output: a row per rule, then, with expectations, a row per expectation; nothing cut. */
export function backtestTable(result: BacktestResult, outcomes: readonly CheckOutcome[] | undefined): string {
  const rules = table(
    ['RULE', 'FROM', 'MATCHES', 'FIRST', 'NOTE'],
    result.rules.map((r) => [
      r.id,
      r.where,
      r.enabled ? r.matches : 'disabled',
      r.first.map(position).join(' '),
      notes(r),
    ]),
    true,
  );
  if (outcomes === undefined) return rules;
  return `${rules}\n${table(
    ['EXPECTATION', 'RESULT', 'DETAIL'],
    outcomes.map((o) => [o.name, o.passed ? 'ok' : 'FAILED', o.message ?? '']),
    true,
  )}`;
}

/**
 * `weirctl backtest --rules <dir|file>... (--events FILE | --topic T (--from X --to Y | --offsets …))
 * [--expect FILE]`: the rules run in process over the events (no server), or through the server over
 * a range of a topic (posted as the inline candidate of `POST /api/backtests`, its progress
 * followed); per rule the matches and where the first were; with --expect, each expectation
 * checked. Exit 1 when an expectation failed (or the backtest on the server failed), 2 on bad
 * input (UsageError).
 */
export function backtest(cmd: ParsedCommand, io: Io): void | Promise<void> {
  const format = (cmd.values.output as string | undefined) ?? 'table';
  const targets = cmd.values.rules as string[] | undefined;
  const eventsFile = cmd.values.events as string | undefined;
  const topic = cmd.values.topic as string | undefined;
  if (!targets?.length) throw new UsageError('backtest: give --rules <folder|file> (one or more)');
  if (topic !== undefined && eventsFile !== undefined)
    throw new UsageError('backtest: give --events FILE (run here) or --topic TOPIC (through the server), not both');
  if (topic === undefined) {
    const stray = ['from', 'to', 'offsets'].filter((f) => cmd.values[f] !== undefined);
    if (stray.length > 0)
      throw new UsageError(
        `backtest: --${stray.join(', --')} ${stray.length === 1 ? 'goes' : 'go'} with --topic TOPIC (a backtest through the server)`,
      );
    if (cmd.values.server !== undefined)
      throw new UsageError(
        'backtest --server: give --topic TOPIC with --from TIME --to TIME or --offsets PARTITION:START-END (a backtest through a server reads a topic range)',
      );
    if (eventsFile === undefined)
      throw new UsageError(
        'backtest: give --events <file.ndjson|file.json> (run here), or --topic TOPIC with --from/--to or --offsets (through the server)',
      );
  }
  const source = topic === undefined ? undefined : sourceOf(cmd.values, topic);
  const expectFile = cmd.values.expect as string | undefined;
  const junitFile = cmd.values.junit as string | undefined;
  if ((format === 'junit' || junitFile !== undefined) && expectFile === undefined)
    throw new UsageError('backtest: JUnit XML reports expectations: give --expect FILE');
  const first = intFlag(cmd.values, 'first') ?? 5;

  let mapping: Mapping | undefined;
  const rules = loadRules(
    ruleFiles(targets),
    () =>
      (mapping ??= loadMapping(
        cmd.values.mapping as string | undefined,
        cmd.values['mapping-file'] as string | undefined,
      )),
  );
  if (rules.rules.length === 0) throw new UsageError(`backtest: no rule in ${targets.join(', ')}`);
  for (const ignored of rules.ignored) io.err(`ignored (not a rule): ${ignored}\n`);
  const ids = rules.rules.map((r) => r.id);
  const expectations: Expectations | undefined =
    expectFile === undefined ? undefined : parseExpectations(readText(expectFile), expectFile, ids);
  const report: Report = { format, expectFile, junitFile, expectations };

  const started = performance.now();
  if (source !== undefined) {
    const { weir } = openSession(cmd, io.env ?? process.env);
    const serverIo = {
      err: io.err,
      progress: process.stderr.isTTY === true,
      signal: io.signal ?? new AbortController().signal,
    };
    return runOnServer(weir, rules.rules, source, first, serverIo).then(({ result, server }) =>
      reportResult(result, report, { source: server.topic, seconds: (performance.now() - started) / 1000, server }, io),
    );
  }
  const run = new Backtest(rules.rules, first);
  readEvents(eventsFile!, (event, at) => run.event(event, at));
  const result = run.finish();
  reportResult(result, report, { source: eventsFile!, seconds: (performance.now() - started) / 1000 }, io);
}

interface Report {
  readonly format: string;
  readonly expectFile: string | undefined;
  readonly junitFile: string | undefined;
  readonly expectations: Expectations | undefined;
}

/**
 * The output of both modes: the table, JSON/YAML or JUnit on stdout (`--junit FILE` besides), the
 * counts on stderr; through a server, the JSON also holds the backtest's id and diff, and stderr
 * the diff's counts. ReportedFailure (exit 1) when an expectation failed.
 */
function reportResult(
  result: BacktestResult,
  report: Report,
  run: { readonly source: string; readonly seconds: number; readonly server?: ServerBacktest },
  io: Io,
): void {
  const { format, expectFile, junitFile, expectations } = report;
  const outcomes = expectations && checkExpectations(expectations, result);
  const junit = () => junitXml(expectFile!, run.source, outcomes!);
  const server = run.server && { id: run.server.id, topic: run.server.topic, diff: run.server.diff };
  if (format === 'junit') io.out(junit());
  else if (format === 'table') io.out(backtestTable(result, outcomes));
  else
    io.out(
      formatValue(
        {
          ...result,
          ...(server ? { backtest: server } : {}),
          ...(outcomes === undefined
            ? {}
            : { expectations: { file: expectFile, othersMayFire: expectations!.othersMayFire, outcomes } }),
        },
        format as 'json' | 'yaml',
      ),
    );
  if (junitFile !== undefined) {
    try {
      mkdirSync(path.dirname(junitFile), { recursive: true });
      writeFileSync(junitFile, junit());
    } catch (err) {
      throw new UsageError(`--junit ${junitFile}: ${(err as Error).message}`);
    }
  }
  const { seconds } = run;
  const rate = seconds > 0 ? ` (${Math.round(result.events / seconds).toLocaleString('en')} events/s)` : '';
  io.err(`${result.events} event(s), ${result.rules.length} rule(s), ${seconds.toFixed(2)} s${rate}\n`);
  if (run.server) {
    const { diff, unreadable, id } = run.server;
    io.err(
      `backtest ${id} on the server; against the rules in force: ${diff.onlyCandidate.count} new alert(s), ${diff.onlyCurrent.count} lost, ${diff.both.count} in both\n`,
    );
    if (unreadable > 0) io.err(`${unreadable} record(s) of the range could not be read (not JSON)\n`);
  }
  const failed = outcomes?.filter((o) => !o.passed).length ?? 0;
  if (outcomes !== undefined) io.err(`${failed} of ${outcomes.length} expectation(s) failed\n`);
  if (failed > 0) throw new ReportedFailure('backtest');
}
