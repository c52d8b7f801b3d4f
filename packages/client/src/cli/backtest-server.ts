import type { BacktestRequest, BacktestSource, BacktestStatus } from '@weir/contract';
import type { WeirClient } from '../client.ts';
import type { ParsedCommand } from './args.ts';
import type { BacktestResult, MatchPosition } from './backtest-run.ts';
import type { BacktestRule } from './backtest-rules.ts';
import { ReportedFailure, UsageError } from './errors.ts';

/** What a backtest through a server gives besides the per-rule result: its id and the diff against the rules in force. */
export interface ServerBacktest {
  readonly id: string;
  readonly topic: string;
  readonly diff: NonNullable<BacktestStatus['result']>['diff'];
  /** Records of the range the engine could not read (not JSON): the live engine dead-letters them. */
  readonly unreadable: number;
}

/** A topic range: times or offsets. */
export type TopicSource = Extract<BacktestSource, { topic: string }>;

/**
 * `--offsets P:START-END` (repeatable, or comma-separated): per partition, the offsets from START
 * (included) to END (excluded), as `source.offsets` of `POST /api/backtests`.
 */
export function parseOffsets(specs: readonly string[]): Record<string, [number, number]> {
  const offsets: Record<string, [number, number]> = {};
  for (const spec of specs.flatMap((s) => s.split(',')).map((s) => s.trim())) {
    const m = /^(\d+):(\d+)-(\d+)$/.exec(spec);
    if (!m)
      throw new UsageError(`--offsets ${spec}: give PARTITION:START-END (start included, end excluded), e.g. 0:0-1000`);
    if (Object.hasOwn(offsets, m[1]!)) throw new UsageError(`--offsets: partition ${m[1]} is given twice`);
    offsets[m[1]!] = [Number(m[2]), Number(m[3])];
  }
  return offsets;
}

/**
 * The source of a backtest through a server, from `--topic` with `--from` and `--to` (ISO 8601 or
 * epoch milliseconds; the server checks them and names a bad one) or with `--offsets`.
 */
export function sourceOf(values: ParsedCommand['values'], topic: string): TopicSource {
  const from = values.from as string | undefined;
  const to = values.to as string | undefined;
  const offsets = values.offsets as string[] | undefined;
  if (offsets?.length) {
    if (from !== undefined || to !== undefined)
      throw new UsageError('backtest: give --from and --to, or --offsets, not both');
    return { topic, offsets: parseOffsets(offsets) };
  }
  if (from === undefined || to === undefined)
    throw new UsageError(
      `backtest --topic ${topic}: give the range: --from TIME --to TIME (ISO 8601 or epoch ms) or --offsets PARTITION:START-END`,
    );
  const time = (t: string) => (/^\d+$/.test(t) ? Number(t) : t);
  return { topic, from: time(from), to: time(to) };
}

/** Where an alert's record is: its partition and offset in the topic (`end`: a window closed with no record of its own). */
function positionOf(alert: Record<string, unknown>): MatchPosition {
  const source = (alert['_alert'] as { source?: { partition?: unknown; offset?: unknown } | null } | undefined)?.source;
  return typeof source?.partition === 'number' && typeof source.offset === 'number'
    ? { partition: source.partition, offset: source.offset }
    : { end: true };
}

/** The server's result in the shape of the in-process one (same table, JSON, expectations and JUnit). */
export function resultOf(rules: readonly BacktestRule[], status: BacktestStatus): BacktestResult {
  const result = status.result!;
  const byId = new Map(result.rules.map((r) => [r.id, r]));
  return {
    events: result.events,
    rules: rules.map((rule) => {
      const found = byId.get(rule.id);
      return {
        id: rule.id,
        where: rule.where,
        source: rule.source,
        enabled: rule.enabled,
        matches: found?.alerts ?? 0,
        first: (found?.first ?? []).map((a) => positionOf(a)),
        evaluationErrors: 0,
        lateEvents: 0,
      };
    }),
  };
}

/** What the server run needs of weirctl: stderr, whether it is a terminal (progress shown), SIGINT. */
export interface ServerIo {
  readonly err: (s: string) => void;
  readonly progress: boolean;
  readonly signal: AbortSignal;
}

const share = (s: BacktestStatus) => `${Math.floor(s.progress.share * 100)}%`;

/**
 * Runs the rules as the inline candidate of `POST /api/backtests` over the source, follows its
 * progress (server-sent events; on a terminal, a progress line on stderr), and answers the result
 * as the in-process run gives it, with the backtest's id and its diff. A failed or cancelled
 * backtest is reported on stderr (ReportedFailure: exit 1); Ctrl-C cancels it on the server.
 */
export async function runOnServer(
  weir: WeirClient,
  rules: readonly BacktestRule[],
  source: TopicSource,
  first: number,
  io: ServerIo,
): Promise<{ result: BacktestResult; server: ServerBacktest }> {
  const request: BacktestRequest = {
    candidate: { rules: rules.map((r) => ({ id: r.id, pdl: r.pdl, enabled: r.enabled })) },
    source,
    first: Math.min(first, 1000),
  };
  const started = await weir.startBacktest(request);
  const id = started.id;
  let shown = false;
  const last = await weir.followBacktest(
    id,
    (s) => {
      if (!io.progress || (s.state !== 'running' && s.state !== 'queued')) return;
      io.err(
        `\rbacktest ${id}: ${share(s)}, ${s.progress.eventsRead.toLocaleString('en')} events, ${s.progress.eventsPerSecond.toLocaleString('en')} events/s `,
      );
      shown = true;
    },
    io.signal,
  );
  if (shown) io.err('\n');
  let final = last;
  if (final.state === 'queued' || final.state === 'running') {
    final = await weir.cancelBacktest(id);
    io.err(`backtest ${id} cancelled (interrupted) after ${final.progress.eventsRead} event(s)\n`);
    throw new ReportedFailure('backtest');
  }
  if (final.state !== 'done' || !final.result) {
    io.err(`backtest ${id} ${final.state}: ${final.error ?? '(no reason given)'}\n`);
    throw new ReportedFailure('backtest');
  }
  return {
    result: resultOf(rules, final),
    server: { id, topic: source.topic, diff: final.result.diff, unreadable: final.result.unreadable },
  };
}
