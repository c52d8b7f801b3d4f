/**
 * The PDL syntax tree. Every node is readonly, has a `kind` discriminant and a source `span`.
 * The grammar each node comes from is quoted in parser.ts.
 */

export interface Span {
  /** Offset of the first character. */
  readonly start: number;
  /** Offset after the last character. */
  readonly end: number;
  /** 1-based line and column of `start`. */
  readonly line: number;
  readonly column: number;
}

export interface Pipeline {
  readonly kind: 'Pipeline';
  readonly stages: readonly Stage[];
  readonly span: Span;
}

export type Stage =
  | QueryStage
  | EvalStage
  | FieldsStage
  | RenameStage
  | FlattenStage
  | LookupStage
  | RexStage
  | ParseKvStage
  | ParseCsvStage
  | AggregationStage
  | TemporalStage;

export type CorrelationStage = AggregationStage | TemporalStage;

// ---- values -------------------------------------------------------------------------------

/** A field path: `winlog.event_data.Image` is `["winlog", "event_data", "Image"]`. */
export interface FieldRef {
  readonly kind: 'Field';
  readonly path: readonly string[];
  readonly span: Span;
}

export interface StringLiteral {
  readonly kind: 'String';
  /** The text after escapes; every `*` in it is a wildcard unless listed in `literalStars`. */
  readonly value: string;
  /** Offsets in `value` of asterisks written `\*`. */
  readonly literalStars: readonly number[];
  /**
   * Written `i"..."`: compares case-insensitively (both sides lower-cased). Only a value of `=`,
   * `!=`, `?=` and `IN` may be one.
   */
  readonly caseInsensitive?: boolean;
  readonly span: Span;
}

export interface NumberLiteral {
  readonly kind: 'Number';
  readonly value: number;
  readonly span: Span;
}

export interface BooleanLiteral {
  readonly kind: 'Boolean';
  readonly value: boolean;
  readonly span: Span;
}

export interface NullLiteral {
  readonly kind: 'Null';
  readonly span: Span;
}

export type ScalarLiteral = StringLiteral | NumberLiteral | BooleanLiteral | NullLiteral;

export interface ArrayLiteral {
  readonly kind: 'Array';
  readonly elements: readonly ScalarLiteral[];
  readonly span: Span;
}

export type Literal = ScalarLiteral | ArrayLiteral;

/** A plain name that is not a field: a lookup id, a temporal label. */
export interface NameNode {
  readonly kind: 'Name';
  readonly value: string;
  readonly span: Span;
}

// ---- queries ------------------------------------------------------------------------------

export type Query = OrQuery | AndQuery | NotQuery | ComparisonQuery | InQuery;

export interface OrQuery {
  readonly kind: 'Or';
  /** Two or more operands. */
  readonly operands: readonly Query[];
  readonly span: Span;
}

export interface AndQuery {
  readonly kind: 'And';
  /** Two or more operands. */
  readonly operands: readonly Query[];
  readonly span: Span;
}

export interface NotQuery {
  readonly kind: 'Not';
  readonly operand: Query;
  readonly span: Span;
}

export const ComparisonOperator = {
  Eq: '=',
  NotEq: '!=',
  Contains: '?=',
  Matches: '~=',
  Lt: '<',
  Gt: '>',
  Le: '<=',
  Ge: '>=',
} as const;
export type ComparisonOperator = (typeof ComparisonOperator)[keyof typeof ComparisonOperator];

export interface ComparisonQuery {
  readonly kind: 'Comparison';
  readonly field: FieldRef;
  readonly operator: ComparisonOperator;
  /** A literal, or another field (field-vs-field comparison). */
  readonly value: Literal | FieldRef;
  readonly span: Span;
}

export interface InQuery {
  readonly kind: 'In';
  readonly field: FieldRef;
  readonly values: ArrayLiteral;
  readonly span: Span;
}

export interface QueryStage {
  readonly kind: 'QueryStage';
  readonly query: Query;
  readonly span: Span;
}

// ---- eval ---------------------------------------------------------------------------------

export type Expression = Literal | FieldRef | BinaryExpression | IfExpression | CallExpression;

export type ArithmeticOperator = '+' | '-' | '*' | '/';

export interface BinaryExpression {
  readonly kind: 'Binary';
  readonly operator: ArithmeticOperator;
  readonly left: Expression;
  readonly right: Expression;
  readonly span: Span;
}

export interface IfExpression {
  readonly kind: 'If';
  readonly condition: Query;
  readonly then: Expression;
  readonly else: Expression;
  readonly span: Span;
}

export interface CallExpression {
  readonly kind: 'Call';
  readonly name: string;
  readonly args: readonly Expression[];
  readonly span: Span;
}

export interface Assignment {
  readonly kind: 'Assignment';
  readonly target: FieldRef;
  readonly value: Expression;
  readonly span: Span;
}

export interface EvalStage {
  readonly kind: 'EvalStage';
  readonly assignments: readonly Assignment[];
  readonly span: Span;
}

// ---- field shaping ------------------------------------------------------------------------

export interface FieldsStage {
  readonly kind: 'FieldsStage';
  readonly mode: 'keep' | 'remove';
  readonly fields: readonly FieldRef[];
  readonly span: Span;
}

export interface RenamePair {
  readonly kind: 'RenamePair';
  readonly from: FieldRef;
  readonly to: FieldRef;
  readonly span: Span;
}

export interface RenameStage {
  readonly kind: 'RenameStage';
  readonly renames: readonly RenamePair[];
  readonly span: Span;
}

export interface FlattenStage {
  readonly kind: 'FlattenStage';
  readonly span: Span;
}

export interface LookupOutput {
  readonly kind: 'LookupOutput';
  /** The table column to copy. */
  readonly column: FieldRef;
  /** Where to put it; null means under the column's own name. */
  readonly as: FieldRef | null;
  readonly span: Span;
}

export interface LookupStage {
  readonly kind: 'LookupStage';
  readonly lookupId: NameNode;
  /** The table column matched against the event. */
  readonly lookupField: FieldRef;
  /** The event field whose value is looked up; null means the same name as `lookupField`. */
  readonly eventField: FieldRef | null;
  readonly outputs: readonly LookupOutput[];
  readonly span: Span;
}

export interface RexStage {
  readonly kind: 'RexStage';
  readonly field: FieldRef;
  /** The regular expression text (after string escapes). */
  readonly pattern: string;
  readonly span: Span;
}

export interface ParseKvStage {
  readonly kind: 'ParseKvStage';
  readonly field: FieldRef;
  readonly delimiter: string;
  readonly span: Span;
}

export interface ParseCsvStage {
  readonly kind: 'ParseCsvStage';
  readonly field: FieldRef;
  /** The header text; names are separated by the delimiter and trimmed. */
  readonly header: string;
  readonly delimiter: string;
  readonly span: Span;
}

// ---- correlation --------------------------------------------------------------------------

export type DurationUnit = 's' | 'm' | 'h' | 'd' | 'w';

export interface Duration {
  readonly kind: 'Duration';
  readonly value: number;
  readonly unit: DurationUnit;
  readonly span: Span;
}

export interface CorrelationOptions {
  readonly timespan: Duration;
  readonly groupBy: readonly FieldRef[];
  readonly emit: 'event' | 'close';
  readonly reset: boolean;
  readonly suppress: Duration | null;
  readonly where: Query | null;
}

export type AggregationFunction = 'event_count' | 'value_count' | 'value_sum' | 'value_avg' | 'value_percentile';

export interface AggregationStage {
  readonly kind: 'AggregationStage';
  readonly function: AggregationFunction;
  /** value_count: one or more fields; value_sum/value_avg/value_percentile: exactly one; event_count: none. */
  readonly fields: readonly FieldRef[];
  readonly options: CorrelationOptions;
  readonly span: Span;
}

export interface TemporalQuery {
  readonly kind: 'TemporalQuery';
  readonly query: Query;
  readonly label: NameNode | null;
  readonly span: Span;
}

export interface TemporalStage {
  readonly kind: 'TemporalStage';
  readonly ordered: boolean;
  readonly queries: readonly TemporalQuery[];
  readonly options: CorrelationOptions;
  readonly span: Span;
}

export type Node =
  Pipeline | Stage | Query | Expression | NameNode | Assignment | RenamePair | LookupOutput | Duration | TemporalQuery;
