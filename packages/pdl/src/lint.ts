import type { Expression, FieldRef, Pipeline, Query, Stage, StringLiteral } from './ast.ts';
import { compile } from './compiler.ts';
import { isPdlSyntaxError } from './errors.ts';
import type { PdlLimits } from './limits.ts';
import { parse } from './parser.ts';
import { compileUserRegex, UserRegexError } from './regex.ts';
import { constantConditions } from './lintConditions.ts';
import type { LintDiagnostic } from './lintDiagnostic.ts';
import { closest, diagnosticAt, rangeAt, sortDiagnostics } from './lintDiagnostic.ts';
import { ProducedFields, SampledFields, fieldText } from './lintFields.ts';
import { neverMatches } from './lintRegexMatch.ts';

export interface PdlLintOptions {
  /** Events of the topic the PDL will read: fields none of them holds are reported (only when given). */
  readonly sampleEvents?: readonly unknown[];
  /** Where the samples come from, for the messages (`topic winlogbeat`). */
  readonly sampleSource?: string;
  /** The lookup ids that exist: any other one is reported (only when given). */
  readonly lookups?: Iterable<string>;
  readonly limits?: Partial<PdlLimits>;
}

/** The codes of lintPdl (docs/detection-as-code.md, "Lint"). */
export const pdlLintCodes = [
  'PDL_SYNTAX',
  'PDL_INVALID',
  'PDL_REGEX_INVALID',
  'PDL_REGEX_NEVER_MATCHES',
  'PDL_UNKNOWN_LOOKUP',
  'PDL_NEVER_TRUE',
  'PDL_ALWAYS_TRUE',
  'PDL_FIELD_NOT_SEEN',
] as const;

/**
 * Lints a PDL text: never throws for bad PDL. A syntax error is the only diagnostic when there is
 * one (nothing else can be read); otherwise every check runs, and what saving would refuse is an
 * error, what would save but likely not do what was meant a warning.
 */
export function lintPdl(text: string, options: PdlLintOptions = {}): LintDiagnostic[] {
  let pipeline: Pipeline;
  try {
    pipeline = parse(text, options.limits === undefined ? undefined : { limits: options.limits });
  } catch (error) {
    if (!isPdlSyntaxError(error)) throw error;
    const code =
      error.code === 'USER_REGEX' || error.code === 'INVALID_REGEX'
        ? 'PDL_REGEX_INVALID'
        : error.code === 'UNKNOWN_LOOKUP'
          ? 'PDL_UNKNOWN_LOOKUP'
          : 'PDL_SYNTAX';
    return [atError(text, error.offset, code, error.detail)];
  }
  const out: LintDiagnostic[] = [];
  const at = (span: { start: number; end: number }) => rangeAt(text, span.start, span.end);

  const regex = (literal: StringLiteral | { value: string; span: { start: number; end: number } }): void => {
    try {
      compileUserRegex(literal.value);
    } catch (error) {
      if (!(error instanceof UserRegexError)) throw error;
      out.push(diagnosticAt(at(literal.span), 'PDL_REGEX_INVALID', 'error', error.message));
      return;
    }
    const why = neverMatches(literal.value);
    if (why !== undefined)
      out.push(
        diagnosticAt(
          at(literal.span),
          'PDL_REGEX_NEVER_MATCHES',
          'warning',
          `the regular expression "${literal.value}" can match no text: ${why}`,
        ),
      );
  };
  const query = (q: Query): void => {
    for (const c of constantConditions(q)) {
      const code = c.value ? 'PDL_ALWAYS_TRUE' : 'PDL_NEVER_TRUE';
      out.push(
        diagnosticAt(
          at(c.node.span),
          code,
          'warning',
          `this condition is ${c.value ? 'always' : 'never'} true: ${c.reason}`,
        ),
      );
    }
    eachQuery(q, (leaf) => {
      if (leaf.kind === 'Comparison' && leaf.operator === '~=' && leaf.value.kind === 'String') regex(leaf.value);
    });
  };
  const expression = (e: Expression): void => {
    if (e.kind === 'If') {
      query(e.condition);
      expression(e.then);
      expression(e.else);
    } else if (e.kind === 'Binary') {
      expression(e.left);
      expression(e.right);
    } else if (e.kind === 'Call') {
      e.args.forEach(expression);
      const pattern = e.args[1];
      if (e.name === 'replace' && pattern?.kind === 'String') regex(pattern);
    }
  };
  const lookups = options.lookups === undefined ? undefined : new Set(options.lookups);

  for (const stage of pipeline.stages) {
    switch (stage.kind) {
      case 'QueryStage':
        query(stage.query);
        break;
      case 'EvalStage':
        for (const a of stage.assignments) expression(a.value);
        break;
      case 'RexStage':
        regex({ value: stage.pattern, span: stage.span });
        break;
      case 'LookupStage':
        if (lookups !== undefined && !lookups.has(stage.lookupId.value)) {
          const id = stage.lookupId.value;
          const near = closest(id, lookups);
          const range = at(stage.lookupId.span);
          out.push(
            diagnosticAt(
              range,
              'PDL_UNKNOWN_LOOKUP',
              'error',
              `lookup \`${id}\` does not exist${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`,
              near === undefined ? undefined : { title: `Use lookup \`${near}\``, edits: [{ range, text: near }] },
            ),
          );
        }
        break;
      case 'AggregationStage':
      case 'TemporalStage':
        if (stage.options.where !== null) query(stage.options.where);
        if (stage.kind === 'TemporalStage') for (const t of stage.queries) query(t.query);
        break;
      default:
        break;
    }
  }
  if (options.sampleEvents !== undefined) out.push(...unseenFields(text, pipeline, options));
  if (!out.some((d) => d.severity === 'error')) {
    try {
      compile(text, options.limits === undefined ? {} : { limits: options.limits });
    } catch (error) {
      if (!isPdlSyntaxError(error)) throw error;
      out.push(atError(text, error.offset, 'PDL_INVALID', error.detail));
    }
  }
  return sortDiagnostics(out);
}

function atError(text: string, offset: number, code: string, message: string): LintDiagnostic {
  // the token at the offset: up to the next whitespace, at least one character
  let end = offset;
  while (end < text.length && !/\s/.test(text[end] as string)) end++;
  return diagnosticAt(rangeAt(text, offset, Math.max(end, Math.min(offset + 1, text.length))), code, 'error', message);
}

function eachQuery(q: Query, visit: (leaf: Query) => void): void {
  visit(q);
  if (q.kind === 'And' || q.kind === 'Or') for (const o of q.operands) eachQuery(o, visit);
  else if (q.kind === 'Not') eachQuery(q.operand, visit);
}

/** PDL_FIELD_NOT_SEEN: the fields a stage reads from its input event that no sample holds and no earlier stage made. */
function unseenFields(text: string, pipeline: Pipeline, options: PdlLintOptions): LintDiagnostic[] {
  const samples = new SampledFields(options.sampleEvents ?? []);
  if (samples.events === 0) return [];
  const produced = new ProducedFields();
  const out: LintDiagnostic[] = [];
  const source = options.sampleSource === undefined ? '' : ` of ${options.sampleSource}`;
  const read = (field: FieldRef): void => {
    if (samples.has(field.path) || produced.has(field.path)) return;
    const name = fieldText(field);
    const near = closest(name, samples.writable());
    const range = rangeAt(text, field.span.start, field.span.end);
    out.push(
      diagnosticAt(
        range,
        'PDL_FIELD_NOT_SEEN',
        'warning',
        `field \`${name}\` is in none of the ${samples.events} sample event(s)${source}${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`,
        near === undefined ? undefined : { title: `Use field \`${near}\``, edits: [{ range, text: near }] },
      ),
    );
  };
  const query = (q: Query): void =>
    eachQuery(q, (leaf) => {
      if (leaf.kind === 'Comparison' || leaf.kind === 'In') read(leaf.field);
      if (leaf.kind === 'Comparison' && leaf.value.kind === 'Field') read(leaf.value);
    });
  const expression = (e: Expression): void => {
    if (e.kind === 'Field') read(e);
    else if (e.kind === 'If') {
      query(e.condition);
      expression(e.then);
      expression(e.else);
    } else if (e.kind === 'Binary') {
      expression(e.left);
      expression(e.right);
    } else if (e.kind === 'Call') e.args.forEach(expression);
  };
  for (const stage of pipeline.stages as readonly Stage[]) {
    switch (stage.kind) {
      case 'QueryStage':
        query(stage.query);
        break;
      case 'EvalStage':
        for (const a of stage.assignments) {
          expression(a.value);
          produced.add(a.target.path);
        }
        break;
      case 'RenameStage':
        for (const r of stage.renames) {
          read(r.from);
          produced.add(r.to.path);
        }
        break;
      case 'LookupStage':
        read(stage.eventField ?? stage.lookupField);
        for (const o of stage.outputs) produced.add((o.as ?? o.column).path);
        break;
      case 'RexStage':
        read(stage.field);
        try {
          for (const name of compileUserRegex(stage.pattern).groupNames) produced.add([name]);
        } catch {
          // reported as PDL_REGEX_INVALID
        }
        break;
      case 'ParseCsvStage':
        read(stage.field);
        for (const name of stage.header.split(stage.delimiter)) produced.add([name.trim()]);
        break;
      case 'ParseKvStage':
        read(stage.field);
        return out; // its keys come from the data: nothing after it can be checked
      case 'FlattenStage':
        return out; // renames every nested field
      case 'AggregationStage':
      case 'TemporalStage':
        // `where` reads the event the stage emits, not its input: not checked
        for (const f of [...(stage.kind === 'AggregationStage' ? stage.fields : []), ...stage.options.groupBy]) read(f);
        if (stage.kind === 'TemporalStage') for (const t of stage.queries) query(t.query);
        return out; // what follows reads the correlation's output
      default:
        break;
    }
  }
  return out;
}
