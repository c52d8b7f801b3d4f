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
  if (env.routeCorrelations === true) {
    // engine mode: the stages before the first correlation run here; it and the rest run on its group's partition
    return {
      run(record) {
        const event = eventOf(record);
        if (typeof event === 'string') return failure(event);
        const routed = program.route(event, { timestamp: record.timestamp });
        if (routed === null) return nothing;
        return {
          kind: 'records',
          records: [],
          routes: [
            {
              stage: 'pdl',
              pdlStage: routed.stage,
              key: routed.key,
              event: routed.event,
              time: routed.time,
              timestamp: record.timestamp,
            },
          ],
        };
      },
      resume(routed) {
        const outs = program.resume({ stage: routed.pdlStage, event: routed.event, time: routed.time });
        return { kind: 'records', records: outs.map((out) => outputRecord(out, routed.timestamp)) };
      },
      advanceBy(elapsedMs) {
        return { kind: 'records', records: program.advanceBy(elapsedMs).map((out) => outputRecord(out, Date.now())) };
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
