/** Brands PdlSyntaxError instances so they are recognised across realms and package copies. */
export const kPdlSyntaxError: unique symbol = Symbol.for('weir.pdl.syntaxError');

export interface SourcePosition {
  /** 0-based offset into the PDL text. */
  readonly offset: number;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

export interface PdlSyntaxErrorDetails extends SourcePosition {
  /** What the parser accepted at this point (`a value after '='`), or null when not applicable. */
  readonly expected?: string | null;
  /** The offending token, quoted (`'bob'`), or `end of input`. */
  readonly found?: string | null;
  /** The source text, used to render `excerpt`. */
  readonly source?: string;
}

/** The codes of PDL's errors; closed: a new kind of error adds its code here. */
export const pdlErrorCodes = ['SYNTAX', 'LIMIT', 'UNKNOWN_LOOKUP', 'INVALID_REGEX', 'USER_REGEX'] as const;
export type PdlErrorCode = (typeof pdlErrorCodes)[number];

const kPdlError: unique symbol = Symbol.for('weir.pdl.error');

/** The base of every error class of this package: a code from `pdlErrorCodes` and a brand. */
export abstract class PdlError extends Error {
  readonly [kPdlError] = true;
  abstract readonly code: PdlErrorCode;
}

export function isPdlError(value: unknown): value is PdlError {
  return typeof value === 'object' && value !== null && (value as { [kPdlError]?: unknown })[kPdlError] === true;
}

/**
 * An error at a position of PDL text: syntax and limits (this class), and what compiling finds
 * beyond the syntax (PdlCompileError: unknown lookups, invalid regular expressions). `message` is
 * `line L, column C: <detail>`. `isPdlSyntaxError` recognises both, since both point into the text.
 */
export class PdlSyntaxError extends PdlError {
  readonly [kPdlSyntaxError] = true;
  readonly code: PdlErrorCode;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly expected: string | null;
  readonly found: string | null;
  /** The message without the position prefix. */
  readonly detail: string;
  /** The offending source line with a caret under the column (empty when unknown). */
  readonly excerpt: string;

  constructor(detail: string, details: PdlSyntaxErrorDetails, code: PdlErrorCode = 'SYNTAX') {
    super(`line ${details.line}, column ${details.column}: ${detail}`);
    this.name = 'PdlSyntaxError';
    this.code = code;
    this.detail = detail;
    this.line = details.line;
    this.column = details.column;
    this.offset = details.offset;
    this.expected = details.expected ?? null;
    this.found = details.found ?? null;
    this.excerpt = details.source === undefined ? '' : renderExcerpt(details.source, details.line, details.column);
  }
}

/** The PDL is well-formed but does not compile: it names a lookup that does not exist, or holds an invalid regular expression. */
export class PdlCompileError extends PdlSyntaxError {
  constructor(detail: string, details: PdlSyntaxErrorDetails, code: 'UNKNOWN_LOOKUP' | 'INVALID_REGEX') {
    super(detail, details, code);
    this.name = 'PdlCompileError';
  }
}

export function isPdlSyntaxError(value: unknown): value is PdlSyntaxError {
  return (
    typeof value === 'object' && value !== null && (value as { [kPdlSyntaxError]?: unknown })[kPdlSyntaxError] === true
  );
}

function renderExcerpt(source: string, line: number, column: number): string {
  const text = source.split('\n')[line - 1] ?? '';
  return `${text}\n${' '.repeat(Math.max(0, column - 1))}^`;
}
