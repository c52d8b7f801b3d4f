import type { CompiledPdl } from '@weir/pdl';
import { DefinitionViolation } from './task-definition-error.ts';
import { eventOf, fieldPath } from './event-values.ts';
import { definitionPdl } from './pdl-programs.ts';
import type { JsonObject, TaskEnvironment, TaskFactory } from './task-function.ts';
import { failure, one } from './task-results.ts';

interface EvalEntry {
  readonly condition?: string;
  readonly action: 'rename' | 'set' | 'remove';
  readonly field: string;
  readonly value?: string;
}

interface EvalDefinition {
  readonly eval: readonly EvalEntry[];
}

/** One entry: applies its action to the event and returns the event (a new object after `set`). */
type EvalStep = (event: JsonObject, timestamp: number) => JsonObject;

const bareSegment = /^[A-Za-z_][A-Za-z0-9_:-]*$/;

/** A field name as PDL text: dots separate levels; segments PDL cannot read bare are backquoted. */
export function pdlFieldReference(name: string): string {
  const quote = (s: string): string => '`' + s.replace(/[\\`]/g, '\\$&') + '`';
  const segments = name.split('.');
  if (segments.includes('')) return quote(name);
  return segments.map((s) => (bareSegment.test(s) ? s : quote(s))).join('.');
}

function compileStep(entry: EvalEntry, index: number, env: TaskEnvironment): EvalStep {
  const key = `eval[${index}]`;
  const field = fieldPath(entry.field);
  switch (entry.action) {
    case 'rename': {
      if (!entry.value) throw DefinitionViolation.of(`${key}.value`, 'rename needs the new field name in value');
      const to = fieldPath(entry.value);
      return (event) => {
        const moved = field.take(event);
        if (moved !== undefined) to.set(event, moved);
        return event;
      };
    }
    case 'remove':
      return (event) => {
        field.take(event);
        return event;
      };
    case 'set': {
      if (entry.value === undefined || entry.value.trim() === '') {
        throw DefinitionViolation.of(
          `${key}.value`,
          'set needs a PDL eval expression in value, e.g. "\\"text\\"" for a text or "a + 1"',
        );
      }
      const program = definitionPdl(`${key}.value`, entry.value, env, {}, `eval ${pdlFieldReference(entry.field)}=`);
      return (event, timestamp) => program.run(event, { timestamp }) ?? event;
    }
  }
}

/**
 * EVAL (tasks.md): event → event; each entry in order, when its `condition` (PDL; empty = always)
 * holds: `rename` moves `field` to `value`, `set` sets `field` to the PDL expression `value`,
 * `remove` deletes `field`.
 */
export const evalTask: TaskFactory = (definition, _task, env) => {
  const d = definition as unknown as EvalDefinition;
  const steps: EvalStep[] = [];
  const conditions: (CompiledPdl | null)[] = [];
  const problems: string[] = [];
  // every entry is compiled, so one answer lists every bad condition and value
  const attempt = <T>(compileIt: () => T): T | null => {
    try {
      return compileIt();
    } catch (error) {
      if (!(error instanceof DefinitionViolation)) throw error;
      problems.push(...error.violations);
      return null;
    }
  };
  d.eval.forEach((entry, index) => {
    const condition = entry.condition?.trim() ?? '';
    conditions.push(condition === '' ? null : attempt(() => definitionPdl(`eval[${index}].condition`, condition, env)));
    const step = attempt(() => compileStep(entry, index, env));
    if (step !== null) steps.push(step);
  });
  if (problems.length > 0) throw new DefinitionViolation(problems);
  return {
    run(record) {
      const parsed = eventOf(record);
      if (typeof parsed === 'string') return failure(parsed);
      let event = parsed;
      for (let i = 0; i < steps.length; i++) {
        const condition = conditions[i] as CompiledPdl | null;
        if (condition !== null && condition.run(event, { timestamp: record.timestamp }) === null) continue;
        event = (steps[i] as EvalStep)(event, record.timestamp);
      }
      return one({ value: event, timestamp: record.timestamp });
    },
  };
};
