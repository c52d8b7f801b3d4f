import type { BinaryExpression, CallExpression, Expression } from './ast.ts';
import { syntaxErrorAt } from './compileErrors.ts';
import { functions, toText } from './functions.ts';
import { compileQuery } from './query.ts';
import { UserRegexError, compileUserRegex } from './regex.ts';
import type { JsonObject } from './values.ts';
import { asNumber, getPath } from './values.ts';

/** A compiled eval expression. Never throws: wrong types give null (pdl.md, "eval"). */
export type Evaluator = (event: JsonObject) => unknown;

export interface ExpressionEnvironment {
  /** The clock behind now(), epoch milliseconds. */
  readonly now: () => number;
}

export function compileExpression(expression: Expression, env: ExpressionEnvironment): Evaluator {
  return (expressionCompilers[expression.kind] as (e: Expression, env: ExpressionEnvironment) => Evaluator)(
    expression,
    env,
  );
}

type ExpressionCompilers = {
  readonly [K in Expression['kind']]: (node: Extract<Expression, { kind: K }>, env: ExpressionEnvironment) => Evaluator;
};

const expressionCompilers: ExpressionCompilers = {
  String: (node) => {
    const value = node.value;
    return () => value;
  },
  Number: (node) => {
    const value = node.value;
    return () => value;
  },
  Boolean: (node) => {
    const value = node.value;
    return () => value;
  },
  Null: () => () => null,
  Array: (node) => {
    const values = node.elements.map((e) => (e.kind === 'Null' ? null : e.value));
    return () => values.slice();
  },
  Field: (node) => {
    const path = node.path;
    return (event) => {
      const value = getPath(event, path);
      return value === undefined ? null : value;
    };
  },
  Binary: compileBinary,
  If: (node, env) => {
    const condition = compileQuery(node.condition);
    const then = compileExpression(node.then, env);
    const otherwise = compileExpression(node.else, env);
    return (event) => (condition(event) ? then(event) : otherwise(event));
  },
  Call: compileCall,
};

/** Text for `+` concatenation: strings, numbers and booleans (as toText writes them); anything else makes the result null. */
function concatText(value: unknown): string | null {
  return typeof value === 'object' ? null : toText(value);
}

function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

function compileBinary(node: BinaryExpression, env: ExpressionEnvironment): Evaluator {
  const left = compileExpression(node.left, env);
  const right = compileExpression(node.right, env);
  switch (node.operator) {
    case '+':
      return (event) => {
        const a = left(event);
        const b = right(event);
        if (typeof a === 'number' && typeof b === 'number') return finite(a + b);
        if (typeof a === 'string' || typeof b === 'string') {
          const x = concatText(a);
          const y = concatText(b);
          return x === null || y === null ? null : x + y;
        }
        return null;
      };
    case '-':
      return numeric(left, right, (a, b) => a - b);
    case '*':
      return numeric(left, right, (a, b) => a * b);
    case '/':
      return numeric(left, right, (a, b) => (b === 0 ? Number.NaN : a / b));
  }
}

/** `- * /` read numbers and canonical numerals; anything else, or a non-finite result, is null. */
function numeric(left: Evaluator, right: Evaluator, op: (a: number, b: number) => number): Evaluator {
  return (event) => {
    const a = asNumber(left(event));
    if (a === undefined) return null;
    const b = asNumber(right(event));
    return b === undefined ? null : finite(op(a, b));
  };
}

function compileCall(node: CallExpression, env: ExpressionEnvironment): Evaluator {
  const spec = Object.hasOwn(functions, node.name) ? functions[node.name] : undefined;
  if (spec === undefined) throw syntaxErrorAt(node.span, `unknown function '${node.name}'`);
  if (node.args.length < spec.minArgs || node.args.length > spec.maxArgs) {
    throw syntaxErrorAt(node.span, `${node.name}() cannot take ${node.args.length} arguments`);
  }
  const args: unknown[] = new Array<unknown>(node.args.length);
  const evaluators: (Evaluator | null)[] = node.args.map((arg, i) => {
    if (i !== spec.regexArg) return compileExpression(arg, env);
    if (arg.kind !== 'String')
      throw syntaxErrorAt(arg.span, `argument ${i + 1} of ${node.name}() must be a regular expression string literal`);
    try {
      args[i] = compileUserRegex(arg.value);
    } catch (error) {
      if (error instanceof UserRegexError)
        throw syntaxErrorAt(arg.span, `invalid regular expression: ${error.reason}`, undefined, 'INVALID_REGEX');
      throw error;
    }
    return null;
  });
  const call = spec.call;
  const now = env.now;
  // One argument buffer per call site: evaluation is synchronous and a call site never re-enters itself.
  return (event) => {
    for (let i = 0; i < evaluators.length; i++) {
      const evaluate = evaluators[i];
      if (evaluate !== null && evaluate !== undefined) args[i] = evaluate(event);
    }
    const result = call(args, now);
    return result === undefined ? null : result;
  };
}
