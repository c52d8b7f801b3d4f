import type {
  AggregationFunction,
  AggregationStage,
  ArrayLiteral,
  Assignment,
  ComparisonOperator,
  CorrelationOptions,
  Duration,
  DurationUnit,
  EvalStage,
  Expression,
  FieldRef,
  FieldsStage,
  Literal,
  LookupOutput,
  LookupStage,
  NameNode,
  ParseCsvStage,
  ParseKvStage,
  Pipeline,
  Query,
  QueryStage,
  RenamePair,
  RenameStage,
  RexStage,
  ScalarLiteral,
  Span,
  Stage,
  TemporalQuery,
  TemporalStage,
} from './ast.ts';
import { PdlCompileError, PdlSyntaxError } from './errors.ts';
import { functions, isFunctionName } from './functions.ts';
import { lex } from './lexer.ts';
import type { PdlLimits } from './limits.ts';
import { resolveLimits } from './limits.ts';
import { printQuery } from './printer.ts';
import { UserRegexError, compileUserRegex } from './regex.ts';
import { TokenKind } from './tokenKind.ts';
import type { Token } from './tokenKind.ts';
import { commands, keywords } from './vocabulary.ts';

export interface ParseOptions {
  /** maxTextLength, maxDepth and maxTokens apply to parsing. */
  readonly limits?: Partial<PdlLimits>;
}

/** Parses PDL text into a Pipeline; throws PdlSyntaxError with the line and column of the problem. */
export function parse(source: string, options?: ParseOptions): Pipeline {
  const limits = resolveLimits(options?.limits);
  if (source.length > limits.maxTextLength) {
    throw new PdlSyntaxError(
      `the PDL text is ${source.length} characters long; the limit is ${limits.maxTextLength}`,
      {
        offset: 0,
        line: 1,
        column: 1,
      },
      'LIMIT',
    );
  }
  return new Parser(source, lex(source, limits.maxTokens), limits.maxDepth).parsePipeline();
}

const COMPARISON_TOKENS: ReadonlyMap<string, ComparisonOperator> = new Map([
  [TokenKind.Eq, '='],
  [TokenKind.NotEq, '!='],
  [TokenKind.Contains, '?='],
  [TokenKind.Matches, '~='],
  [TokenKind.Lt, '<'],
  [TokenKind.Gt, '>'],
  [TokenKind.Le, '<='],
  [TokenKind.Ge, '>='],
] as [string, ComparisonOperator][]);

const DURATION_MS: Readonly<Record<DurationUnit, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

export function durationMs(duration: Duration): number {
  return duration.value * DURATION_MS[duration.unit];
}

const CORRELATION_ARGUMENTS = "an argument (timespan, group_by, emit, reset, suppress, where), '|' or end of input";

function describe(token: Token): string {
  if (token.kind === TokenKind.EOF) return 'end of input';
  const text = token.text.length > 40 ? `${token.text.slice(0, 37)}...` : token.text;
  return `'${text}'`;
}

class Parser {
  private readonly source: string;
  private readonly tokens: readonly Token[];
  private readonly maxDepth: number;
  private index = 0;
  private depth = 0;

  constructor(source: string, tokens: readonly Token[], maxDepth: number) {
    this.source = source;
    this.tokens = tokens;
    this.maxDepth = maxDepth;
  }

  // ---- token helpers ------------------------------------------------------------------------

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)] as Token;
  }

  private advance(): Token {
    const token = this.peek();
    if (token.kind !== TokenKind.EOF) this.index++;
    return token;
  }

  private at(kind: Token['kind']): boolean {
    return this.peek().kind === kind;
  }

  private atWord(word: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === TokenKind.Name && token.bare === true && token.text === word;
  }

  private expect(kind: Token['kind'], expected: string): Token {
    if (!this.at(kind)) throw this.unexpected(expected);
    return this.advance();
  }

  private expectWord(word: string, expected: string): Token {
    if (!this.atWord(word)) throw this.unexpected(expected);
    return this.advance();
  }

  /** `expected <expected>, found <token>` at the current token. */
  private unexpected(expected: string, token: Token = this.peek()): PdlSyntaxError {
    return this.errorAt(token, `expected ${expected}, found ${describe(token)}`, expected);
  }

  private errorAt(
    token: { start: number; line: number; column: number },
    detail: string,
    expected?: string,
    code?: 'INVALID_REGEX' | 'LIMIT',
  ): PdlSyntaxError {
    const found = 'kind' in token ? describe(token as Token) : null;
    const at = {
      offset: token.start,
      line: token.line,
      column: token.column,
      expected: expected ?? null,
      found,
      source: this.source,
    };
    return code === 'INVALID_REGEX' ? new PdlCompileError(detail, at, code) : new PdlSyntaxError(detail, at, code);
  }

  /** The span from `first` to the last consumed token. */
  private span(first: Token | Span): Span {
    const last = this.tokens[this.index - 1] ?? first;
    return { start: first.start, end: Math.max(first.start, last.end), line: first.line, column: first.column };
  }

  private enter(token: Token): void {
    if (++this.depth > this.maxDepth) {
      throw this.errorAt(token, `nesting is deeper than the limit of ${this.maxDepth} levels`, undefined, 'LIMIT');
    }
  }

  private leave(): void {
    this.depth--;
  }

  // ---- pipeline -------------------------------------------------------------------------------

  /** pipeline := ['|'] stage ('|' stage)* */
  parsePipeline(): Pipeline {
    const first = this.peek();
    if (this.at(TokenKind.Pipe)) this.advance();
    const stages: Stage[] = [];
    for (;;) {
      const stage = this.parseStage();
      stages.push(stage);
      if (this.at(TokenKind.EOF)) break;
      if (!this.at(TokenKind.Pipe)) {
        const correlation = stage.kind === 'AggregationStage' || stage.kind === 'TemporalStage';
        throw this.unexpected(
          correlation
            ? CORRELATION_ARGUMENTS
            : stage.kind === 'QueryStage'
              ? "AND, OR, '|' or end of input"
              : "'|' or end of input",
        );
      }
      this.advance();
    }
    return {
      kind: 'Pipeline',
      stages,
      span: { start: first.start, end: this.peek().start, line: first.line, column: first.column },
    };
  }

  /**
   * stage := query | eval | fields | rename | flatten | lookup | rex | parse_csv | parse_kv
   *        | event_count | value_count | value_sum | value_avg | temporal
   * A command word is a command only when no comparison operator follows it (`eval="x"` is a query).
   */
  private parseStage(): Stage {
    const token = this.peek();
    if (token.kind === TokenKind.Name && token.bare === true && commands.has(token.text) && !this.startsComparison(1)) {
      switch (token.text) {
        case 'eval':
          return this.parseEval();
        case 'fields':
          return this.parseFields();
        case 'rename':
          return this.parseRename();
        case 'flatten':
          this.advance();
          return { kind: 'FlattenStage', span: this.span(token) };
        case 'lookup':
          return this.parseLookup();
        case 'rex':
          return this.parseRex();
        case 'parse_kv':
          return this.parseKv();
        case 'parse_csv':
          return this.parseCsv();
        case 'temporal':
          return this.parseTemporal();
        default:
          return this.parseAggregation(token.text as AggregationFunction);
      }
    }
    if (token.kind === TokenKind.Name || token.kind === TokenKind.LParen) {
      const query = this.parseQuery();
      const stage: QueryStage = { kind: 'QueryStage', query, span: this.span(token) };
      return stage;
    }
    throw this.unexpected(
      'a stage (a query, or a command such as eval, fields, rename, flatten, lookup, rex, event_count)',
    );
  }

  private startsComparison(ahead: number): boolean {
    const token = this.peek(ahead);
    return COMPARISON_TOKENS.has(token.kind) || this.atWord('IN', ahead);
  }

  // ---- fields and literals --------------------------------------------------------------------

  /** field := name ('.' name)* — a keyword must be backquoted to be a field. */
  private parseField(expected = 'a field name'): FieldRef {
    const token = this.peek();
    if (token.kind !== TokenKind.Name || (token.bare === true && keywords.has(token.text))) {
      throw this.unexpected(expected);
    }
    this.advance();
    return { kind: 'Field', path: token.segments ?? [token.text], span: this.span(token) };
  }

  /** fieldList := field (',' field)* */
  private parseFieldList(expected: string): FieldRef[] {
    const fields = [this.parseField(expected)];
    while (this.at(TokenKind.Comma)) {
      this.advance();
      fields.push(this.parseField("a field name after ','"));
    }
    return fields;
  }

  /** scalar := string | ['-'] number | true | false | null */
  private tryParseScalar(): ScalarLiteral | null {
    const token = this.peek();
    switch (token.kind) {
      case TokenKind.String:
        this.advance();
        if (token.caseless === true) {
          return {
            kind: 'String',
            value: token.value ?? '',
            literalStars: token.literalStars ?? [],
            caseInsensitive: true,
            span: this.span(token),
          };
        }
        return {
          kind: 'String',
          value: token.value ?? '',
          literalStars: token.literalStars ?? [],
          span: this.span(token),
        };
      case TokenKind.Number:
        this.advance();
        return { kind: 'Number', value: token.number ?? 0, span: this.span(token) };
      case TokenKind.Minus: {
        const next = this.peek(1);
        if (next.kind !== TokenKind.Number) return null;
        this.advance();
        this.advance();
        return { kind: 'Number', value: -(next.number ?? 0), span: this.span(token) };
      }
      case TokenKind.Name:
        if (token.bare !== true) return null;
        if (token.text === 'true' || token.text === 'false') {
          this.advance();
          return { kind: 'Boolean', value: token.text === 'true', span: this.span(token) };
        }
        if (token.text === 'null') {
          this.advance();
          return { kind: 'Null', span: this.span(token) };
        }
        return null;
      default:
        return null;
    }
  }

  /** array := '[' [scalar (',' scalar)*] ']' */
  private parseArray(expected: string): ArrayLiteral {
    const open = this.expect(TokenKind.LBracket, expected);
    const elements: ScalarLiteral[] = [];
    if (!this.at(TokenKind.RBracket)) {
      for (;;) {
        const element = this.tryParseScalar();
        if (element === null) throw this.unexpected('a string, number, boolean or null in the array');
        elements.push(element);
        if (!this.at(TokenKind.Comma)) break;
        this.advance();
      }
    }
    this.expect(TokenKind.RBracket, "',' or ']'");
    return { kind: 'Array', elements, span: this.span(open) };
  }

  /** A case-insensitive literal (`i"..."`) is only a value of `=`, `!=`, `?=` and `IN`. */
  private rejectCaseless(node: Token | ScalarLiteral | null): void {
    if (node === null) return;
    const where: Token | Span | null =
      'caseless' in node && node.caseless === true
        ? (node as Token)
        : node.kind === 'String' && 'span' in node && node.caseInsensitive === true
          ? node.span
          : null;
    if (where !== null)
      throw this.errorAt(where, `a case-insensitive string (i"...") is only allowed after =, !=, ?= and in an IN list`);
  }

  private parseRegexString(expected: string): string {
    const token = this.expect(TokenKind.String, expected);
    this.rejectCaseless(token);
    const pattern = token.value ?? '';
    this.validateRegex(token, pattern);
    return pattern;
  }

  private validateRegex(token: Token | Span, pattern: string): string[] {
    try {
      return [...compileUserRegex(pattern).groupNames];
    } catch (error) {
      if (error instanceof UserRegexError)
        throw this.errorAt(token, `invalid regular expression: ${error.reason}`, undefined, 'INVALID_REGEX');
      throw error;
    }
  }

  private parseString(expected: string): string {
    const token = this.expect(TokenKind.String, expected);
    this.rejectCaseless(token);
    return token.value ?? '';
  }

  // ---- query --------------------------------------------------------------------------------

  /** query := andQuery (OR andQuery)* */
  private parseQuery(): Query {
    const first = this.peek();
    const operands = [this.parseAnd()];
    while (this.atWord('OR')) {
      this.advance();
      operands.push(this.parseAnd());
    }
    return operands.length === 1 ? (operands[0] as Query) : { kind: 'Or', operands, span: this.span(first) };
  }

  /** andQuery := notQuery (AND notQuery)* */
  private parseAnd(): Query {
    const first = this.peek();
    const operands = [this.parseNot()];
    while (this.atWord('AND')) {
      this.advance();
      operands.push(this.parseNot());
    }
    return operands.length === 1 ? (operands[0] as Query) : { kind: 'And', operands, span: this.span(first) };
  }

  /** notQuery := NOT notQuery | '(' query ')' | comparison */
  private parseNot(): Query {
    const first = this.peek();
    if (this.atWord('NOT')) {
      this.advance();
      this.enter(first);
      const operand = this.parseNot();
      this.leave();
      return { kind: 'Not', operand, span: this.span(first) };
    }
    if (first.kind === TokenKind.LParen) {
      this.advance();
      this.enter(first);
      const query = this.parseQuery();
      this.leave();
      this.expect(TokenKind.RParen, "')' or AND/OR");
      return query;
    }
    return this.parseComparison();
  }

  /** comparison := field op value | field IN array;  op := = != ?= ~= < > <= >= */
  private parseComparison(): Query {
    const first = this.peek();
    const field = this.parseField("a field name, '(' or NOT");
    const token = this.peek();
    if (this.atWord('IN')) {
      this.advance();
      const values = this.parseArray("an array after 'IN'");
      return { kind: 'In', field, values, span: this.span(first) };
    }
    const operator = COMPARISON_TOKENS.get(token.kind);
    if (operator === undefined) {
      throw this.unexpected(`an operator (=, !=, ?=, ~=, <, >, <=, >=) or IN after '${first.text}'`);
    }
    this.advance();
    const value = this.parseComparisonValue(operator);
    return { kind: 'Comparison', field, operator, value, span: this.span(first) };
  }

  private parseComparisonValue(operator: ComparisonOperator): Literal | FieldRef {
    switch (operator) {
      case '=':
      case '!=': {
        const expected = `a value after '${operator}'`;
        if (this.at(TokenKind.LBracket)) return this.parseArray(expected);
        return this.tryParseScalar() ?? this.parseField(expected);
      }
      case '?=': {
        const expected = "a string, number, boolean or field after '?='";
        const scalar = this.tryParseScalar();
        if (scalar?.kind === 'Null') throw this.errorAt(scalar.span, `expected ${expected}, found 'null'`, expected);
        return scalar ?? this.parseField(expected);
      }
      case '~=': {
        const token = this.peek();
        const value = this.parseRegexString("a regular expression string after '~='");
        return { kind: 'String', value, literalStars: token.literalStars ?? [], span: this.span(token) };
      }
      default: {
        const expected = `a number, string or field after '${operator}'`;
        const scalar = this.tryParseScalar();
        this.rejectCaseless(scalar);
        if (scalar !== null && scalar.kind !== 'Number' && scalar.kind !== 'String') {
          throw this.errorAt(
            scalar.span,
            `expected ${expected}, found '${scalar.kind === 'Null' ? 'null' : String(scalar.value)}'`,
            expected,
          );
        }
        return scalar ?? this.parseField(expected);
      }
    }
  }

  // ---- eval ---------------------------------------------------------------------------------

  /** eval := 'eval' assignment (',' assignment)*;  assignment := field '=' expr */
  private parseEval(): EvalStage {
    const first = this.advance();
    const assignments: Assignment[] = [];
    do {
      if (assignments.length > 0) this.advance();
      const start = this.peek();
      const target = this.parseField(assignments.length === 0 ? "a field name after 'eval'" : "a field name after ','");
      this.expect(TokenKind.Eq, `'=' after '${start.text}'`);
      const value = this.parseExpression("a value after '='");
      assignments.push({ kind: 'Assignment', target, value, span: this.span(start) });
    } while (this.at(TokenKind.Comma));
    return { kind: 'EvalStage', assignments, span: this.span(first) };
  }

  /** expr := term (('+' | '-') term)* */
  private parseExpression(expected: string): Expression {
    const first = this.peek();
    let left = this.parseTerm(expected);
    while (this.at(TokenKind.Plus) || this.at(TokenKind.Minus)) {
      const operator = this.advance().kind as '+' | '-';
      const right = this.parseTerm(`a value after '${operator}'`);
      left = { kind: 'Binary', operator, left, right, span: this.span(first) };
    }
    return left;
  }

  /** term := factor (('*' | '/') factor)* */
  private parseTerm(expected: string): Expression {
    const first = this.peek();
    let left = this.parseFactor(expected);
    while (this.at(TokenKind.Star) || this.at(TokenKind.Slash)) {
      const operator = this.advance().kind as '*' | '/';
      const right = this.parseFactor(`a value after '${operator}'`);
      left = { kind: 'Binary', operator, left, right, span: this.span(first) };
    }
    return left;
  }

  /**
   * factor := literal | '-' number | field | '(' expr ')'
   *         | 'if' '(' query ',' expr ',' expr ')' | function '(' [expr (',' expr)*] ')'
   */
  private parseFactor(expected: string): Expression {
    const first = this.peek();
    if (first.kind === TokenKind.LParen) {
      this.advance();
      this.enter(first);
      const inner = this.parseExpression("a value after '('");
      this.leave();
      this.expect(TokenKind.RParen, "')' or an operator (+ - * /)");
      return inner;
    }
    if (first.kind === TokenKind.LBracket) {
      const array = this.parseArray(expected);
      for (const element of array.elements) this.rejectCaseless(element);
      return array;
    }
    const scalar = this.tryParseScalar();
    this.rejectCaseless(scalar);
    if (scalar !== null) return scalar;
    if (
      first.kind === TokenKind.Name &&
      first.bare === true &&
      this.peek(1).kind === TokenKind.LParen &&
      !keywords.has(first.text)
    ) {
      return first.text === 'if' ? this.parseIf() : this.parseCall();
    }
    if (first.kind === TokenKind.Minus) {
      throw this.unexpected("a number after '-'", this.peek(1));
    }
    return this.parseField(expected);
  }

  private parseIf(): Expression {
    const first = this.advance();
    this.enter(first);
    this.advance(); // (
    const condition = this.parseQuery();
    this.expect(TokenKind.Comma, "',' after the condition of if()");
    const then = this.parseExpression('a value for the true case of if()');
    this.expect(TokenKind.Comma, "',' after the true case of if()");
    const otherwise = this.parseExpression('a value for the false case of if()');
    this.expect(TokenKind.RParen, "')' to close if()");
    this.leave();
    return { kind: 'If', condition, then, else: otherwise, span: this.span(first) };
  }

  private parseCall(): Expression {
    const first = this.advance();
    const name = first.text;
    if (!isFunctionName(name)) {
      const known = Object.keys(functions).concat('if').sort().join(', ');
      throw this.errorAt(first, `unknown function '${name}'; expected one of ${known}`, `one of ${known}`);
    }
    this.enter(first);
    this.advance(); // (
    const args: Expression[] = [];
    if (!this.at(TokenKind.RParen)) {
      for (;;) {
        args.push(this.parseExpression(`an argument of ${name}()`));
        if (!this.at(TokenKind.Comma)) break;
        this.advance();
      }
    }
    this.expect(TokenKind.RParen, `',' or ')' in ${name}()`);
    this.leave();
    const spec = functions[name];
    if (spec !== undefined) {
      if (args.length < spec.minArgs || args.length > spec.maxArgs) {
        const range =
          spec.maxArgs === Infinity
            ? `at least ${spec.minArgs}`
            : spec.minArgs === spec.maxArgs
              ? `${spec.minArgs}`
              : `${spec.minArgs} to ${spec.maxArgs}`;
        throw this.errorAt(first, `${name}() takes ${range} argument${range === '1' ? '' : 's'}, found ${args.length}`);
      }
      if (spec.regexArg !== undefined) {
        const arg = args[spec.regexArg] as Expression;
        if (arg.kind !== 'String') {
          throw this.errorAt(
            arg.span,
            `argument ${spec.regexArg + 1} of ${name}() must be a regular expression string literal`,
          );
        }
        this.validateRegex(arg.span, arg.value);
      }
    }
    return { kind: 'Call', name, args, span: this.span(first) };
  }

  // ---- field shaping ------------------------------------------------------------------------

  /** fields := 'fields' ('keep' | 'remove') field (',' field)* */
  private parseFields(): FieldsStage {
    const first = this.advance();
    const mode = this.peek();
    if (!this.atWord('keep') && !this.atWord('remove')) throw this.unexpected("'keep' or 'remove' after 'fields'");
    this.advance();
    const fields = this.parseFieldList(`a field name after '${mode.text}'`);
    return { kind: 'FieldsStage', mode: mode.text as 'keep' | 'remove', fields, span: this.span(first) };
  }

  /** rename := 'rename' field AS field (',' field AS field)* */
  private parseRename(): RenameStage {
    const first = this.advance();
    const renames: RenamePair[] = [];
    do {
      if (renames.length > 0) this.advance();
      const start = this.peek();
      const from = this.parseField(renames.length === 0 ? "a field name after 'rename'" : "a field name after ','");
      this.expectWord('AS', `AS after '${start.text}'`);
      const to = this.parseField("a field name after 'AS'");
      renames.push({ kind: 'RenamePair', from, to, span: this.span(start) });
    } while (this.at(TokenKind.Comma));
    return { kind: 'RenameStage', renames, span: this.span(first) };
  }

  /**
   * lookup := 'lookup' lookupId lookupField [AS eventField]
   *           OUTPUT outField [AS newName] (',' outField [AS newName])*
   */
  private parseLookup(): LookupStage {
    const first = this.advance();
    const idToken = this.peek();
    let lookupId: NameNode;
    if (
      idToken.kind === TokenKind.String ||
      (idToken.kind === TokenKind.Name && !(idToken.bare === true && keywords.has(idToken.text)))
    ) {
      this.advance();
      const value = idToken.kind === TokenKind.String ? (idToken.value ?? '') : (idToken.segments ?? []).join('.');
      lookupId = { kind: 'Name', value, span: this.span(idToken) };
    } else {
      throw this.unexpected("a lookup id after 'lookup'");
    }
    const lookupField = this.parseField('the lookup field (a column of the lookup table)');
    let eventField: FieldRef | null = null;
    if (this.atWord('AS')) {
      this.advance();
      eventField = this.parseField("an event field after 'AS'");
    }
    this.expectWord(
      'OUTPUT',
      eventField === null ? 'AS or OUTPUT after the lookup field' : 'OUTPUT after the event field',
    );
    const outputs: LookupOutput[] = [];
    do {
      if (outputs.length > 0) this.advance();
      const start = this.peek();
      const column = this.parseField(outputs.length === 0 ? "a column name after 'OUTPUT'" : "a column name after ','");
      let as: FieldRef | null = null;
      if (this.atWord('AS')) {
        this.advance();
        as = this.parseField("a field name after 'AS'");
      }
      outputs.push({ kind: 'LookupOutput', column, as, span: this.span(start) });
    } while (this.at(TokenKind.Comma));
    return { kind: 'LookupStage', lookupId, lookupField, eventField, outputs, span: this.span(first) };
  }

  /** rex := 'rex' field string — the regex must have at least one named group */
  private parseRex(): RexStage {
    const first = this.advance();
    const field = this.parseField("a field name after 'rex'");
    const token = this.peek();
    const pattern = this.parseString('a regular expression string with named groups');
    const groups = this.validateRegex(token, pattern);
    if (groups.length === 0) {
      throw this.errorAt(token, 'the rex regular expression has no named group; add one such as (?<name>...)');
    }
    return { kind: 'RexStage', field, pattern, span: this.span(first) };
  }

  /** parse_kv := 'parse_kv' field ['delimiter' '=' string] */
  private parseKv(): ParseKvStage {
    const first = this.advance();
    const field = this.parseField("a field name after 'parse_kv'");
    let delimiter = '=';
    if (this.atWord('delimiter')) {
      this.advance();
      this.expect(TokenKind.Eq, "'=' after 'delimiter'");
      delimiter = this.parseNonEmptyString("a delimiter string after 'delimiter='");
    }
    return { kind: 'ParseKvStage', field, delimiter, span: this.span(first) };
  }

  /** parse_csv := 'parse_csv' field ('header' '=' string | 'delimiter' '=' string)* — header required */
  private parseCsv(): ParseCsvStage {
    const first = this.advance();
    const field = this.parseField("a field name after 'parse_csv'");
    let header: string | null = null;
    let delimiter: string | null = null;
    for (;;) {
      if (this.atWord('header') && header === null) {
        this.advance();
        this.expect(TokenKind.Eq, "'=' after 'header'");
        header = this.parseNonEmptyString('a header string after \'header=\' ("a, b, c")');
      } else if (this.atWord('delimiter') && delimiter === null) {
        this.advance();
        this.expect(TokenKind.Eq, "'=' after 'delimiter'");
        delimiter = this.parseNonEmptyString("a delimiter string after 'delimiter='");
      } else {
        break;
      }
    }
    if (header === null) throw this.unexpected('header="a, b, c" for parse_csv');
    return { kind: 'ParseCsvStage', field, header, delimiter: delimiter ?? ',', span: this.span(first) };
  }

  private parseNonEmptyString(expected: string): string {
    const token = this.peek();
    const value = this.parseString(expected);
    if (value === '') throw this.errorAt(token, `expected ${expected}, found an empty string`, expected);
    return value;
  }

  // ---- correlation --------------------------------------------------------------------------

  /**
   * event_count := 'event_count' options
   * value_count := 'value_count' '(' field (',' field)* ')' options
   * value_sum   := 'value_sum' '(' field ')' options;  value_avg and value_percentile likewise
   */
  private parseAggregation(name: AggregationFunction): AggregationStage {
    const first = this.advance();
    let fields: FieldRef[] = [];
    if (name !== 'event_count') {
      this.expect(TokenKind.LParen, `'(' and a field name after '${name}'`);
      const open = this.peek();
      fields = this.parseFieldList(`a field name in ${name}()`);
      if (name !== 'value_count' && fields.length !== 1) {
        throw this.errorAt(open, `${name}() takes exactly one field, found ${fields.length}`);
      }
      this.expect(TokenKind.RParen, `',' or ')' in ${name}()`);
    }
    const options = this.parseCorrelationOptions(name);
    return { kind: 'AggregationStage', function: name, fields, options, span: this.span(first) };
  }

  /**
   * temporal := 'temporal' ['(' 'ordered' '=' (true|false) ')'] '[' tq ('||' tq)* ']' options
   * tq := query [AS label]
   */
  private parseTemporal(): TemporalStage {
    const first = this.advance();
    let ordered = false;
    if (this.at(TokenKind.LParen) && !(this.atWord('ordered', 1) && this.peek(2).kind === TokenKind.Eq)) {
      return this.parseTemporalValues(first);
    }
    if (this.at(TokenKind.LParen)) {
      this.advance();
      this.expectWord('ordered', "'ordered' in temporal(ordered=true)");
      this.expect(TokenKind.Eq, "'=' after 'ordered'");
      ordered = this.parseBoolean("true or false after 'ordered='");
      this.expect(TokenKind.RParen, "')' after the ordered flag");
    }
    this.expect(TokenKind.LBracket, "'[' and the queries of temporal");
    const queries: TemporalQuery[] = [];
    const keys = new Map<string, Token>();
    do {
      if (queries.length > 0) this.advance();
      const start = this.peek();
      const query = this.parseQuery();
      let label: NameNode | null = null;
      if (this.atWord('AS')) {
        this.advance();
        const token = this.peek();
        if (token.kind !== TokenKind.Name && token.kind !== TokenKind.String)
          throw this.unexpected("a label after 'AS'");
        this.advance();
        const value = token.kind === TokenKind.String ? (token.value ?? '') : (token.segments ?? []).join('.');
        label = { kind: 'Name', value, span: this.span(token) };
      }
      const key = label?.value ?? printQuery(query);
      if (keys.has(key)) {
        throw this.errorAt(start, `two temporal queries have the key '${key}'; give them distinct labels with AS`);
      }
      keys.set(key, start);
      queries.push({ kind: 'TemporalQuery', query, label, span: this.span(start) });
    } while (this.at(TokenKind.DoublePipe));
    this.expect(TokenKind.RBracket, "'||', AS or ']'");
    const options = this.parseCorrelationOptions('temporal');
    return { kind: 'TemporalStage', ordered, queries, options, span: this.span(first) };
  }

  /**
   * The original's Sigma form: temporal '(' field ',' '[' value (',' value)* ']' [',' (true|false)] ')' options,
   * the same as `temporal(ordered=<b>) [ field=value1 || field=value2 ... ]`.
   */
  private parseTemporalValues(first: Token): TemporalStage {
    this.advance();
    const field = this.parseField("'ordered=' or a field name in temporal(...)");
    this.expect(TokenKind.Comma, "',' and the values of temporal(<field>, [<value>, ...], <ordered>)");
    const values = this.parseArray("'[' and the values of temporal(<field>, [<value>, ...], <ordered>)");
    if (values.elements.length === 0)
      throw this.errorAt(values.span, 'temporal(<field>, [...]) needs at least one value');
    let ordered = false;
    if (this.at(TokenKind.Comma)) {
      this.advance();
      ordered = this.parseBoolean('true or false (ordered) after the values');
    }
    this.expect(TokenKind.RParen, "')' after temporal(<field>, [<value>, ...], <ordered>)");
    const keys = new Set<string>();
    const queries: TemporalQuery[] = [];
    for (const value of values.elements) {
      const query: Query = { kind: 'Comparison', field, operator: '=', value, span: value.span };
      const key = printQuery(query);
      if (keys.has(key)) throw this.errorAt(value.span, `'${key}' is listed twice in temporal(...)`);
      keys.add(key);
      queries.push({ kind: 'TemporalQuery', query, label: null, span: value.span });
    }
    const options = this.parseCorrelationOptions('temporal');
    return { kind: 'TemporalStage', ordered, queries, options, span: this.span(first) };
  }

  private parseBoolean(expected: string): boolean {
    if (this.atWord('true') || this.atWord('false')) return this.advance().text === 'true';
    throw this.unexpected(expected);
  }

  /**
   * options := (timespan '=' duration | group_by field (',' field)* | emit '=' (event|close)
   *            | reset '=' (true|false) | suppress '=' duration | where query)*  — timespan required
   */
  private parseCorrelationOptions(stage: string): CorrelationOptions {
    let timespan: Duration | null = null;
    let groupBy: FieldRef[] | null = null;
    let emit: 'event' | 'close' | null = null;
    let reset: boolean | null = null;
    let suppress: Duration | null = null;
    let where: Query | null = null;
    const seen = new Set<string>();
    for (;;) {
      const token = this.peek();
      if (token.kind !== TokenKind.Name || token.bare !== true) break;
      const word = token.text;
      if (!['timespan', 'group_by', 'emit', 'reset', 'suppress', 'where'].includes(word)) break;
      if (seen.has(word)) throw this.errorAt(token, `duplicate argument '${word}' for ${stage}`);
      seen.add(word);
      this.advance();
      switch (word) {
        case 'timespan':
          this.expect(TokenKind.Eq, "'=' after 'timespan'");
          timespan = this.parseDuration('timespan', 'smhdw');
          break;
        case 'suppress':
          this.expect(TokenKind.Eq, "'=' after 'suppress'");
          suppress = this.parseDuration('suppress', 'smhdw');
          break;
        case 'group_by':
          groupBy = this.parseFieldList("a field name after 'group_by'");
          break;
        case 'emit':
          this.expect(TokenKind.Eq, "'=' after 'emit'");
          if (!this.atWord('event') && !this.atWord('close')) throw this.unexpected("'event' or 'close' after 'emit='");
          emit = this.advance().text as 'event' | 'close';
          break;
        case 'reset':
          this.expect(TokenKind.Eq, "'=' after 'reset'");
          reset = this.parseBoolean("true or false after 'reset='");
          break;
        default:
          where = this.parseQuery();
      }
    }
    if (timespan === null) throw this.unexpected(`timespan=<n>(s|m|h|d|w) for ${stage}`);
    return { timespan, groupBy: groupBy ?? [], emit: emit ?? 'event', reset: reset ?? true, suppress, where };
  }

  private parseDuration(argument: string, units: string): Duration {
    const token = this.peek();
    const expected = `a duration such as 5m (units ${units.split('').join(', ')}) after '${argument}='`;
    if (token.kind !== TokenKind.Duration || !units.includes(token.unit ?? '')) throw this.unexpected(expected);
    this.advance();
    if ((token.number ?? 0) <= 0) throw this.errorAt(token, `${argument} must be greater than zero`);
    return { kind: 'Duration', value: token.number ?? 0, unit: token.unit as DurationUnit, span: this.span(token) };
  }
}
