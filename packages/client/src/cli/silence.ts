import {
  durationUnitsMs,
  matcherText,
  parseMatcherText,
  silenceStates,
  type SilenceMatcher,
  type SilenceState,
} from '@weir/contract';
import type { Silence } from '../types.ts';
import type { ParsedCommand } from './args.ts';
import { UsageError } from './errors.ts';
import { formatValue, table } from './output.ts';
import { openSession } from './session.ts';

/**
 * `weirctl silence list|create|expire` (docs/cli.md, "silence"): Alertmanager's amtool, on Weir's
 * `/api/silences` (docs/alerts.md, "Silences").
 */
export async function silence(
  cmd: ParsedCommand,
  io: { readonly out: (s: string) => void; readonly env: NodeJS.ProcessEnv },
): Promise<void> {
  const [action, id] = cmd.positionals;
  const { weir } = openSession(cmd, io.env);
  const print = (silences: readonly Silence[]) =>
    io.out(
      cmd.output && cmd.output !== 'table'
        ? formatValue(silences, cmd.output)
        : table(
            ['ID', 'STATE', 'MATCHERS', 'STARTS', 'ENDS', 'CREATED BY', 'COMMENT'],
            silences.map((s) => [
              s.id,
              s.state,
              s.matchers.map(matcherText).join(', '),
              s.startsAt,
              s.endsAt,
              s.createdBy,
              s.comment,
            ]),
          ),
    );
  if (action === 'list') {
    if (id !== undefined) throw new UsageError('silence list takes no id (use --state to filter)');
    const state = cmd.values.state as string | undefined;
    if (state !== undefined && !(silenceStates as readonly string[]).includes(state))
      throw new UsageError(`--state must be one of ${silenceStates.join(', ')}, found '${state}'`);
    return print(await weir.silences(state as SilenceState | undefined));
  }
  if (action === 'create') {
    if (id !== undefined) throw new UsageError('silence create takes no id');
    const matchers = ((cmd.values.match as string[] | undefined) ?? []).map(parseMatcher);
    if (matchers.length === 0) throw new UsageError("silence create: give at least one --match 'field=value'");
    const comment = cmd.values.comment as string | undefined;
    if (!comment) throw new UsageError('silence create: give --comment TEXT (why the alerts are silenced)');
    const from = cmd.values.from as string | undefined;
    const until = cmd.values.until as string | undefined;
    const duration = cmd.values.for as string | undefined;
    if ((until === undefined) === (duration === undefined))
      throw new UsageError('silence create: give --for DURATION (30m, 2h, 1d) or --until TIME, one of them');
    const start = from === undefined ? Date.now() : timeArg('--from', from);
    const endsAt = until !== undefined ? until : new Date(start + durationMs(duration!)).toISOString();
    return print([
      // the start is sent too, so that --for is the silence's exact length
      await weir.createSilence({ matchers, startsAt: new Date(start).toISOString(), endsAt, comment }),
    ]);
  }
  if (action === 'expire') {
    if (id === undefined) throw new UsageError('silence expire <id>');
    return print([await weir.expireSilence(id)]);
  }
  throw new UsageError(`silence: list, create or expire, found '${action ?? ''}'`);
}

/** A `--match`: `field=value`, `field!=value`, `field=~regex` or `field!~regex` (parseMatcherText). */
export function parseMatcher(text: string): SilenceMatcher {
  const matcher = parseMatcherText(text);
  if (matcher === undefined)
    throw new UsageError(
      `--match '${text}': write field=value, field!=value, field=~regex or field!~regex (e.g. _rule.id=failed-login)`,
    );
  return matcher;
}

/** `90s`, `30m`, `2h`, `1d` (a whole number and a unit) in milliseconds. */
export function durationMs(text: string): number {
  const m = /^(\d+)([smhd])$/.exec(text.trim());
  if (m === null) throw new UsageError(`--for '${text}': a whole number and a unit s, m, h or d (30m, 2h, 1d)`);
  return Number(m[1]) * durationUnitsMs[m[2] as 's' | 'm' | 'h' | 'd'];
}

function timeArg(flag: string, text: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms))
    throw new UsageError(`${flag} '${text}': an ISO 8601 time (2026-11-23T06:00:00Z) or epoch ms`);
  return ms;
}
