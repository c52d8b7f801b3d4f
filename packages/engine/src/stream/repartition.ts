/**
 * The internal topics of a correlation stage (docs/engine.md, "Repartition and changelog topics").
 * A topology's task that holds correlations (APPLY_RULES listing a correlation rule, or a
 * PDL_EXPRESSION with a correlation stage) is a stage: records reaching it are re-keyed by their
 * group and written to its repartition topic; the stage runs on the partitions of that topic and
 * keeps its state per partition, backed by its changelog topic.
 */
export interface StageTopics {
  readonly repartition: string;
  readonly changelog: string;
}

const unsafe = /[^A-Za-z0-9._-]/g;

/** `<consumer group id>-<topology name>-<topology id>-task<task id>-repartition|changelog`. */
export function stageTopics(
  groupId: string,
  topology: { readonly id: number; readonly name: string },
  taskId: number,
): StageTopics {
  const base = `${groupId}-${topology.name.replace(unsafe, '_').slice(0, 100)}-${topology.id}-task${taskId}`;
  return { repartition: `${base}-repartition`, changelog: `${base}-changelog` };
}

/** Retention of repartition topics: their records are consumed at once; a week leaves room for a stopped cluster. */
export const repartitionRetentionMs = 7 * 24 * 3600 * 1000;
