/** The KafkaStreams-style states of a stream worker (spec: Engine; architecture: Stream runtime). */
export const workerStates = {
  CREATED: 'CREATED',
  REBALANCING: 'REBALANCING',
  RUNNING: 'RUNNING',
  PENDING_SHUTDOWN: 'PENDING_SHUTDOWN',
  NOT_RUNNING: 'NOT_RUNNING',
  PENDING_ERROR: 'PENDING_ERROR',
  ERROR: 'ERROR',
} as const;
export type WorkerState = keyof typeof workerStates;
