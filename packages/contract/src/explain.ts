import type { FromSchema } from './from-schema.ts';
import { anyJson, responseShape } from './response-shape.ts';

/**
 * `POST /api/explain/pdl` (docs/detection-as-code.md, "Explain"): a rule (PDL text, or a stored
 * rule's id) on an event or on a sample of events, answered with the query tree and a truth value
 * per node, the values seen, where each event stopped and, for a correlation, the group, its
 * window and its count. Exactly one of `pdl` and `ruleId`, and one of `event` and `events`.
 */
export const explainBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    pdl: { type: 'string', description: 'the rule as PDL text' },
    ruleId: { type: 'string', description: 'the id of a stored rule' },
    event: { ...anyJson, description: 'one event: run as the rule runs it' },
    events: {
      type: 'array',
      items: anyJson,
      description: 'a sample fed in order with correlation state kept across it; its end closes open windows',
    },
  },
} as const;
export type ExplainRequest = FromSchema<typeof explainBody>;

const fieldSeen = {
  type: 'object',
  properties: {
    field: { type: 'string' },
    present: { type: 'boolean', description: 'false: the event lacks the field (and `value` is absent)' },
    value: anyJson,
  },
} as const;

/** One node of a query: its PDL text, truth value, and operands or the fields it read. */
const condition = {
  type: 'object',
  description: 'a query node: {kind, pdl, result, line?, column?, operands? (And, Or, Not), fields? (leaves)}',
  properties: {
    kind: { type: 'string', enum: ['And', 'Or', 'Not', 'Comparison', 'In'] },
    pdl: { type: 'string' },
    result: { type: 'boolean' },
    line: { type: 'integer' },
    column: { type: 'integer' },
    operands: { type: 'array', items: { type: 'object', description: 'a query node (recursive)' } },
    fields: { type: 'array', items: fieldSeen },
  },
} as const;

const stageTrace = {
  type: 'object',
  description:
    'a stage as an event went through it: {stage, kind, pdl, passed} for a query (with `condition`) or a transform; for a correlation stage {stage, kind, pdl, group, counted, late, fired, window, state, queries?}',
  properties: {
    stage: { type: 'integer' },
    kind: { type: 'string' },
    pdl: { type: 'string' },
    passed: { type: 'boolean' },
    condition,
    group: { type: 'object', properties: { key: { type: 'string' }, values: { type: 'object' } } },
    counted: { type: 'boolean' },
    late: { type: 'boolean' },
    fired: { type: 'boolean' },
    window: anyJson,
    state: anyJson,
    queries: { type: 'array', items: anyJson },
  },
} as const;

const explanationShape = {
  type: 'object',
  properties: {
    matched: { type: 'boolean', description: 'whether the rule gave any output: the compiled rule’s verdict' },
    outputs: { type: 'array', items: anyJson, description: 'the outputs, as POST /api/test/pdl gives them' },
    events: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer' },
          stages: { type: 'array', items: stageTrace },
          stoppedAt: { type: ['integer', 'null'], description: 'the stage after which nothing came out; null: output' },
          outputs: { type: 'integer' },
        },
      },
    },
    correlation: {
      type: 'object',
      description:
        'the first correlation stage: its emissions (traced through the later stages) and the groups open at the end',
      properties: {
        stage: { type: 'integer' },
        kind: { type: 'string' },
        pdl: { type: 'string' },
        emissions: { type: 'array', items: anyJson },
        openGroups: { type: 'array', items: anyJson },
      },
    },
  },
  required: ['matched', 'outputs', 'events'],
} as const;
export const explanation = responseShape(explanationShape);
