import type {
  ArrayLiteral,
  CorrelationOptions,
  Duration,
  Expression,
  FieldRef,
  Literal,
  NameNode,
  Node,
  Pipeline,
  Query,
  Stage,
  StringLiteral,
} from './ast.ts';
import { commands, keywords, optionWords } from './vocabulary.ts';

/**
 * Prints an AST as canonical PDL text; `parse(print(ast))` equals `ast` except for spans.
 * The printer is a map of handlers keyed by node kind, so a new kind fails the type check here.
 */
export function print(node: Node): string {
  return (printers[node.kind] as (n: Node) => string)(node);
}

export function printQuery(query: Query): string {
  return print(query);
}

/** Words that must be backquoted when they are a whole field name. */
const RESERVED: ReadonlySet<string> = new Set([...keywords, ...commands, ...optionWords]);

const BARE_SEGMENT = /^[A-Za-z_][A-Za-z0-9_:-]*$/;

function printSegment(segment: string): string {
  return BARE_SEGMENT.test(segment) ? segment : `\`${segment.replace(/[\\`]/g, (c) => `\\${c}`)}\``;
}

function printField(field: FieldRef): string {
  if (field.path.length === 1 && RESERVED.has(field.path[0] as string)) return `\`${field.path[0] as string}\``;
  return field.path.map(printSegment).join('.');
}

/** A string with `\` and `"` escaped; asterisks not listed as literal stay wildcards. */
function printString(value: string, literalStars: readonly number[] = []): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string;
    if (ch === '\\' || ch === '"') out += `\\${ch}`;
    else if (ch === '*' && literalStars.includes(i)) out += '\\*';
    else out += ch;
  }
  return `${out}"`;
}

/** A plain text (regex, delimiter, header): asterisks in it are printed as they are. */
function printText(value: string): string {
  return printString(value);
}

function printName(name: NameNode): string {
  return BARE_SEGMENT.test(name.value) && !RESERVED.has(name.value) ? name.value : printText(name.value);
}

function printNumber(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

function printLiteral(literal: Literal): string {
  return print(literal);
}

function printDuration(duration: Duration): string {
  return `${duration.value}${duration.unit}`;
}

function printOptions(options: CorrelationOptions): string {
  let out = ` timespan=${printDuration(options.timespan)}`;
  if (options.groupBy.length > 0) out += ` group_by ${options.groupBy.map(printField).join(', ')}`;
  if (options.emit !== 'event') out += ` emit=${options.emit}`;
  if (!options.reset) out += ' reset=false';
  if (options.suppress !== null) out += ` suppress=${printDuration(options.suppress)}`;
  if (options.where !== null) out += ` where ${printQuery(options.where)}`;
  return out;
}

const PRECEDENCE = { '+': 1, '-': 1, '*': 2, '/': 2 } as const;

function printOperand(expression: Expression, parentPrecedence: number, right: boolean): string {
  const text = print(expression);
  if (expression.kind !== 'Binary') return text;
  const own = PRECEDENCE[expression.operator];
  return own < parentPrecedence || (right && own === parentPrecedence) ? `(${text})` : text;
}

function printJunction(operands: readonly Query[], word: 'AND' | 'OR'): string {
  return operands
    .map((q) => (q.kind === 'Or' || (q.kind === 'And' && word === 'AND') ? `(${print(q)})` : print(q)))
    .join(` ${word} `);
}

type Printers = { readonly [K in Node['kind']]: (node: Extract<Node, { kind: K }>) => string };

const printers: Printers = {
  Pipeline: (node: Pipeline) => node.stages.map((stage: Stage) => print(stage)).join(' | '),
  // values
  Field: printField,
  String: (node: StringLiteral) =>
    (node.caseInsensitive === true ? 'i' : '') + printString(node.value, node.literalStars),
  Number: (node) => printNumber(node.value),
  Boolean: (node) => (node.value ? 'true' : 'false'),
  Null: () => 'null',
  Array: (node: ArrayLiteral) => `[${node.elements.map(printLiteral).join(', ')}]`,
  Name: printName,
  // queries
  Or: (node) => printJunction(node.operands, 'OR'),
  And: (node) => printJunction(node.operands, 'AND'),
  Not: (node) => {
    const operand = node.operand;
    return operand.kind === 'Or' || operand.kind === 'And' ? `NOT (${print(operand)})` : `NOT ${print(operand)}`;
  },
  Comparison: (node) => `${printField(node.field)} ${node.operator} ${print(node.value)}`,
  In: (node) => `${printField(node.field)} IN ${print(node.values)}`,
  QueryStage: (node) => print(node.query),
  // eval
  Binary: (node) => {
    const precedence = PRECEDENCE[node.operator];
    return `${printOperand(node.left, precedence, false)} ${node.operator} ${printOperand(node.right, precedence, true)}`;
  },
  If: (node) => `if(${print(node.condition)}, ${print(node.then)}, ${print(node.else)})`,
  Call: (node) => `${node.name}(${node.args.map((arg) => print(arg)).join(', ')})`,
  Assignment: (node) => `${printField(node.target)} = ${print(node.value)}`,
  EvalStage: (node) => `eval ${node.assignments.map((a) => print(a)).join(', ')}`,
  // field shaping
  FieldsStage: (node) => `fields ${node.mode} ${node.fields.map(printField).join(', ')}`,
  RenamePair: (node) => `${printField(node.from)} AS ${printField(node.to)}`,
  RenameStage: (node) => `rename ${node.renames.map((r) => print(r)).join(', ')}`,
  FlattenStage: () => 'flatten',
  LookupOutput: (node) =>
    node.as === null ? printField(node.column) : `${printField(node.column)} AS ${printField(node.as)}`,
  LookupStage: (node) =>
    `lookup ${printName(node.lookupId)} ${printField(node.lookupField)}` +
    (node.eventField === null ? '' : ` AS ${printField(node.eventField)}`) +
    ` OUTPUT ${node.outputs.map((o) => print(o)).join(', ')}`,
  RexStage: (node) => `rex ${printField(node.field)} ${printText(node.pattern)}`,
  ParseKvStage: (node) =>
    `parse_kv ${printField(node.field)}` + (node.delimiter === '=' ? '' : ` delimiter=${printText(node.delimiter)}`),
  ParseCsvStage: (node) =>
    `parse_csv ${printField(node.field)} header=${printText(node.header)}` +
    (node.delimiter === ',' ? '' : ` delimiter=${printText(node.delimiter)}`),
  // correlation
  Duration: printDuration,
  AggregationStage: (node) =>
    (node.function === 'event_count' ? 'event_count' : `${node.function}(${node.fields.map(printField).join(', ')})`) +
    printOptions(node.options),
  TemporalQuery: (node) =>
    node.label === null ? print(node.query) : `${print(node.query)} AS ${printName(node.label)}`,
  TemporalStage: (node) =>
    `temporal${node.ordered ? '(ordered=true)' : ''} [ ${node.queries.map((q) => print(q)).join(' || ')} ]` +
    printOptions(node.options),
};
