import { anyJson, responseShape } from './response-shape.ts';

/**
 * Backtests over Kafka (docs/detection-as-code.md, "Backtests over Kafka"): candidate rules run
 * over a topic range or uploaded events by the engine's own processing stage, nothing written to
 * any topic; the result per rule and the diff against the rules in force.
 */

export const backtestStates = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type BacktestState = (typeof backtestStates)[number];

/** A candidate rule: inline (a rule body: id and pdl required) or a stored version of one. */
export type BacktestRuleRef =
  | { readonly id: string; readonly version: number }
  | {
      readonly id: string;
      readonly pdl: string;
      readonly name?: string;
      readonly enabled?: boolean;
      readonly severity?: string;
      readonly annotations?: readonly string[];
    };

export type BacktestSource =
  | { readonly topic: string; readonly from: string | number; readonly to: string | number }
  | { readonly topic: string; readonly offsets: Readonly<Record<string, readonly [number, number]>> }
  | { readonly events: readonly unknown[] };

/** Rules (inline or stored versions), or a stored pipeline or topology (as in force, or a version of it). */
export type BacktestCandidate =
  | { readonly rules: readonly BacktestRuleRef[] }
  | { readonly pipeline: number; readonly version?: number }
  | {
      /** A pipeline given inline: stored task ids or whole tasks; `id`: the pipeline in force it is compared with. */
      readonly pipeline: {
        readonly id?: number;
        readonly tasks: readonly (
          | number
          | { readonly id: number; readonly name?: string; readonly function: string; readonly definition?: object }
        )[];
      };
    }
  | { readonly topology: number; readonly version?: number };

export interface BacktestRequest {
  readonly candidate: BacktestCandidate;
  readonly source: BacktestSource;
  /** How many alerts (and ids of each diff set) the result lists; default 20, at most 1000. */
  readonly first?: number;
}

export interface BacktestProgress {
  readonly eventsRead: number;
  /** Share of the range read, 0..1. */
  readonly share: number;
  readonly eventsPerSecond: number;
}

export interface BacktestRuleResult {
  readonly id: string;
  readonly alerts: number;
  readonly first: readonly Record<string, unknown>[];
}

export interface BacktestDiffSet {
  readonly count: number;
  /** The first N alert ids of the set. */
  readonly first: readonly string[];
  /** The alert records of those ids, as the alerts topic would carry them (with `_alert`). */
  readonly alerts: readonly Record<string, unknown>[];
}

export interface BacktestResult {
  readonly events: number;
  readonly rules: readonly BacktestRuleResult[];
  readonly diff: {
    readonly onlyCandidate: BacktestDiffSet;
    readonly onlyCurrent: BacktestDiffSet;
    readonly both: BacktestDiffSet;
  };
  /** Records the stage could not use (not JSON, a task failure); the live engine dead-letters them. */
  readonly unreadable: number;
}

export interface BacktestStatus {
  readonly id: string;
  readonly user: string;
  readonly state: BacktestState;
  readonly created: string;
  readonly ended?: string;
  readonly progress: BacktestProgress;
  readonly error?: string;
  readonly result?: BacktestResult;
}

const diffSet = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    first: { type: 'array', items: { type: 'string' }, description: 'the first N alert ids of the set' },
    alerts: { type: 'array', items: anyJson, description: 'the alert records of those ids (with _alert)' },
  },
} as const;

const statusShape = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    user: { type: 'string' },
    state: { type: 'string', enum: backtestStates },
    created: { type: 'string', description: 'ISO 8601' },
    ended: { type: 'string', description: 'ISO 8601, once done, failed or cancelled' },
    progress: {
      type: 'object',
      properties: {
        eventsRead: { type: 'integer' },
        share: { type: 'number', description: 'share of the range read, 0 to 1' },
        eventsPerSecond: { type: 'number' },
      },
    },
    error: { type: 'string', description: 'why it failed or was cancelled' },
    result: {
      type: 'object',
      properties: {
        events: { type: 'integer' },
        rules: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              alerts: { type: 'integer' },
              first: { type: 'array', items: anyJson },
            },
          },
        },
        diff: {
          type: 'object',
          properties: { onlyCandidate: diffSet, onlyCurrent: diffSet, both: diffSet },
        },
        unreadable: { type: 'integer' },
      },
    },
  },
} as const;

/** `GET /api/backtests/{id}` (and each element of `GET /api/backtests`). */
export const backtestStatus = responseShape(statusShape);

/** `GET /api/backtests/{id}/events`: the status as server-sent events (docs/api.md, "Backtests"). */
export const backtestEvents = {
  type: 'string',
  description:
    'text/event-stream: `event: status` with the whole status (as GET /api/backtests/{id}) now, at each progress step (at most 4 a second) and at each change of state; ends after done, failed or cancelled',
} as const;

/** `POST /api/backtests`: checked by the engine field by field (errors name the field: `source.to`, `candidate.rules[1].version`, `candidate.pipeline`). */
export const backtestBody = {
  type: 'object',
  description:
    '{candidate: {rules: [{id, pdl, …} | {id, version}]} | {pipeline: id, version?} | {pipeline: {id?, tasks: [id | task]}} | {topology: id, version?}, source: {topic, from, to} | {topic, offsets: {partition: [start, end]}} | {events: [...]}, first?}',
} as const;
