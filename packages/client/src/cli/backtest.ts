import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Mapping } from '@weir/sigma';
import { intFlag, type ParsedCommand } from './args.ts';
import { readEvents, readText } from './backtest-events.ts';
import { checkExpectations, parseExpectations, type CheckOutcome, type Expectations } from './backtest-expectations.ts';
import { loadRules, ruleFiles } from './backtest-rules.ts';
import { Backtest, type BacktestResult, type MatchPosition } from './backtest-run.ts';
import { ReportedFailure, UsageError } from './errors.ts';
import { junitXml } from './junit.ts';
import { formatValue, table } from './output.ts';
import { loadMapping } from './sigma-convert.ts';

interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
}

const position = (p: MatchPosition): string => ('line' in p ? String(p.line) : 'index' in p ? `[${p.index}]` : 'end');

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
 * `weirctl backtest --rules <dir|file>... --events FILE [--expect FILE]`: the rules run in process
 * over the events (no server); per rule the matches and where the first were; with --expect, each
 * expectation checked. Exit 1 when an expectation failed, 2 on bad input (UsageError).
 */
export function backtest(cmd: ParsedCommand, io: Io): void {
  if (cmd.values.server !== undefined)
    throw new UsageError(
      'backtest: a backtest over a topic through a server (--server) is not available yet; give --events FILE to run the rules here',
    );
  const format = (cmd.values.output as string | undefined) ?? 'table';
  const targets = cmd.values.rules as string[] | undefined;
  const eventsFile = cmd.values.events as string | undefined;
  if (!targets?.length) throw new UsageError('backtest: give --rules <folder|file> (one or more)');
  if (eventsFile === undefined) throw new UsageError('backtest: give --events <file.ndjson|file.json>');
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

  const started = performance.now();
  const run = new Backtest(rules.rules, first);
  readEvents(eventsFile, (event, at) => run.event(event, at));
  const result = run.finish();
  const seconds = (performance.now() - started) / 1000;
  const outcomes = expectations && checkExpectations(expectations, result);

  const junit = () => junitXml(expectFile!, eventsFile, outcomes!);
  if (format === 'junit') io.out(junit());
  else if (format === 'table') io.out(backtestTable(result, outcomes));
  else
    io.out(
      formatValue(
        outcomes === undefined
          ? result
          : { ...result, expectations: { file: expectFile, othersMayFire: expectations!.othersMayFire, outcomes } },
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
  const rate = seconds > 0 ? ` (${Math.round(result.events / seconds).toLocaleString('en')} events/s)` : '';
  io.err(`${result.events} event(s), ${result.rules.length} rule(s), ${seconds.toFixed(2)} s${rate}\n`);
  const failed = outcomes?.filter((o) => !o.passed).length ?? 0;
  if (outcomes !== undefined) io.err(`${failed} of ${outcomes.length} expectation(s) failed\n`);
  if (failed > 0) throw new ReportedFailure('backtest');
}
