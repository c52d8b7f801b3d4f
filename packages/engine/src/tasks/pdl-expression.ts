import { eventOf } from './event-values.ts';
import { definitionPdl } from './pdl-programs.ts';
import type { JsonObject, TaskFactory, TaskRecord } from './task-function.ts';
import { failure, nothing, one } from './task-results.ts';

interface PdlExpressionDefinition {
  readonly pdl: string;
}

/** An output event's record: timestamped by its `_time` (correlation outputs carry one), else by the input. */
function outputRecord(event: JsonObject, fallback: number): TaskRecord {
  const time = event['_time'];
  return { value: event, timestamp: typeof time === 'number' && Number.isFinite(time) ? time : fallback };
}

/**
 * PDL_EXPRESSION (tasks.md): event → the PDL's output, or nothing. A PDL with correlation stages
 * may emit several events (windows closed by this event) and emits more as the clock advances.
 */
export const pdlExpression: TaskFactory = (definition, task, env) => {
  const d = definition as unknown as PdlExpressionDefinition;
  const program = definitionPdl('pdl', d.pdl, env, { stateStore: env.stateStore, stateId: `task:${task.id}` });
  if (!program.hasCorrelation) {
    return {
      run(record) {
        const event = eventOf(record);
        if (typeof event === 'string') return failure(event);
        const out = program.run(event, { timestamp: record.timestamp });
        return out === null ? nothing : one({ value: out, timestamp: record.timestamp });
      },
    };
  }
  return {
    run(record) {
      const event = eventOf(record);
      if (typeof event === 'string') return failure(event);
      const outs = program.feed(event, { timestamp: record.timestamp });
      return { kind: 'records', records: outs.map((out) => outputRecord(out, record.timestamp)) };
    },
    advanceTime: (nowMs) => program.advanceTime(nowMs).map((out) => outputRecord(out, nowMs)),
  };
};
