import { existsSync, readFileSync } from 'node:fs';
import { explain as explainPdl, type ConditionExplanation, type Explanation, type StageTrace } from '@weir/pdl';
import type { ParsedCommand } from './args.ts';
import { readText } from './backtest-events.ts';
import { ReportedFailure, UsageError } from './errors.ts';
import { parseEvents } from './events.ts';
import { openSession } from './session.ts';

interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

interface Marks {
  readonly yes: string;
  readonly no: string;
}
const unicode: Marks = { yes: '✓', no: '✗' };
const ascii: Marks = { yes: '+', no: '-' };

const json = (value: unknown): string => JSON.stringify(value) ?? 'undefined';
const time = (ms: number): string =>
  Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString() : String(ms);
const window = (w: { start: number; end: number } | null): string =>
  w === null ? 'none open' : `${time(w.start)} .. ${time(w.end)}`;
const pairs = (o: Readonly<Record<string, unknown>>): string =>
  Object.entries(o)
    .map(([k, v]) => `${k}=${json(v)}`)
    .join(' ');

function conditionLines(node: ConditionExplanation, depth: number, marks: Marks, out: string[]): void {
  const seen =
    node.fields === undefined
      ? ''
      : `    (${node.fields.map((f) => (f.present ? `${f.field} = ${json(f.value)}` : `${f.field} missing`)).join(', ')})`;
  out.push(`${'  '.repeat(depth)}${node.result ? marks.yes : marks.no} ${node.pdl}${seen}`);
  for (const operand of node.operands ?? []) conditionLines(operand, depth + 1, marks, out);
}

function stageLines(stage: StageTrace, depth: number, marks: Marks, out: string[]): void {
  const pad = '  '.repeat(depth);
  if (stage.kind === 'QueryStage') {
    out.push(`${pad}stage ${stage.stage} (query):`);
    conditionLines(stage.condition, depth + 1, marks, out);
    return;
  }
  if (stage.kind !== 'AggregationStage' && stage.kind !== 'TemporalStage') {
    out.push(
      `${pad}stage ${stage.stage}: ${stage.passed ? marks.yes : marks.no} ${stage.pdl}${stage.passed ? '' : '  (dropped the event)'}`,
    );
    return;
  }
  out.push(`${pad}stage ${stage.stage}: ${stage.fired ? marks.yes : marks.no} ${stage.pdl}`);
  const inner = `${pad}  `;
  out.push(`${inner}group: ${pairs(stage.group.values) || '(one group)'}`);
  out.push(`${inner}window: ${window(stage.window)}`);
  if (stage.state !== null) out.push(`${inner}state: ${pairs(stage.state)}`);
  out.push(
    `${inner}${stage.late ? 'late: ignored, as live' : stage.counted ? 'counted in the window' : 'not counted (no value for the stage)'}; ${stage.fired ? 'fired' : 'did not fire'}`,
  );
  for (const q of stage.queries ?? []) {
    out.push(`${inner}query ${q.label}:`);
    conditionLines(q.condition, depth + 2, marks, out);
  }
}

/** The explanation as an indented tree: per event its stages, then a correlation's emissions and open groups. */
export function explanationText(explanation: Explanation, marks: Marks = unicode): string {
  const out: string[] = [];
  for (const event of explanation.events) {
    const verdict = event.outputs > 0 ? `${marks.yes} match (${event.outputs} output(s))` : `${marks.no} no match`;
    const stopped = event.stoppedAt === null || event.outputs > 0 ? '' : `, stopped at stage ${event.stoppedAt}`;
    out.push(`event ${event.index}: ${verdict}${stopped}`);
    if (event.stages.length === 0 && event.outputs === 0) out.push('  not a JSON object');
    for (const stage of event.stages) stageLines(stage, 1, marks, out);
  }
  const c = explanation.correlation;
  if (c !== undefined) {
    for (const e of c.emissions) {
      const at = e.atEvent === null ? 'at the end of the events' : `at event ${e.atEvent}`;
      const fate = e.stoppedAt === null ? 'output' : `stopped at stage ${e.stoppedAt}`;
      out.push(
        `emitted by stage ${c.stage} ${at}: group ${pairs(e.group.values) || '(one group)'}, window ${window(e.window)}, ${pairs(e.state)} -> ${fate}`,
      );
      for (const stage of e.stages) stageLines(stage, 1, marks, out);
    }
    for (const g of c.openGroups)
      out.push(
        `open at the end: group ${pairs(g.group.values) || '(one group)'}, window ${window(g.window)}, ${pairs(g.state)}`,
      );
  }
  out.push(explanation.matched ? `matched: yes (${explanation.outputs.length} output(s))` : 'matched: no');
  return `${out.join('\n')}\n`;
}

/** A file that is one JSON object, pretty-printed or not: one event. */
function wholeObject(text: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? [value] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `weirctl explain --rule <id|file.pdl> --event <file|->`: a file (or any path that exists) is
 * explained here with @weir/pdl, no server; otherwise the rule id is explained by the server
 * (POST /api/explain/pdl, with its lookups). One event in the file is run as the rule runs it;
 * several are a sample fed in order (correlations). Exit 0 on a match, 1 on none, 2 on bad input.
 */
export async function explainCommand(cmd: ParsedCommand, io: Io): Promise<void> {
  const rule = cmd.values.rule as string | undefined;
  const file = cmd.values.event as string | undefined;
  if (rule === undefined) throw new UsageError('explain: give --rule <id|file.pdl>');
  if (file === undefined) throw new UsageError('explain: give --event <file|-> (a JSON event, NDJSON or a JSON array)');
  const source = file === '-' ? 'stdin' : file;
  let text: string;
  try {
    text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const events = wholeObject(text) ?? parseEvents(text, source).map((e) => e.value);
  if (events.length === 0) throw new UsageError(`explain: ${source} holds no event`);
  const input = events.length === 1 ? { event: events[0] } : { events };
  const local = rule.endsWith('.pdl') || existsSync(rule);
  let explanation: Explanation;
  if (local) {
    const text = readText(rule);
    try {
      explanation = explainPdl(text, 'event' in input ? input.event : input.events);
    } catch (err) {
      throw new UsageError(`${rule}: ${(err as Error).message}`);
    }
  } else {
    explanation = await openSession(cmd, io.env).weir.explain({ ruleId: rule, ...input });
  }
  const format = cmd.values.output as string | undefined;
  if (format === 'json') io.out(`${JSON.stringify(explanation, null, 2)}\n`);
  else io.out(explanationText(explanation, cmd.values.ascii === true ? ascii : unicode));
  if (!explanation.matched) throw new ReportedFailure('no match');
}
