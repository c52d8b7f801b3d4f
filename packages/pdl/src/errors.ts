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

/**
 * Every error of PDL text: syntax, limits, unknown functions and lookups, invalid regular
 * expressions. `message` is `line L, column C: <detail>`.
 */
export class PdlSyntaxError extends Error {
  readonly [kPdlSyntaxError] = true;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly expected: string | null;
  readonly found: string | null;
  /** The message without the position prefix. */
  readonly detail: string;
  /** The offending source line with a caret under the column (empty when unknown). */
  readonly excerpt: string;

  constructor(detail: string, details: PdlSyntaxErrorDetails) {
    super(`line ${details.line}, column ${details.column}: ${detail}`);
    this.name = 'PdlSyntaxError';
    this.detail = detail;
    this.line = details.line;
    this.column = details.column;
    this.offset = details.offset;
    this.expected = details.expected ?? null;
    this.found = details.found ?? null;
    this.excerpt = details.source === undefined ? '' : renderExcerpt(details.source, details.line, details.column);
  }
}

export function isPdlSyntaxError(value: unknown): value is PdlSyntaxError {
  return typeof value === 'object' && value !== null && (value as { [kPdlSyntaxError]?: unknown })[kPdlSyntaxError] === true;
}

/** 1-based line and column of an offset. */
export function locate(source: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1 };
}

function renderExcerpt(source: string, line: number, column: number): string {
  const text = source.split('\n')[line - 1] ?? '';
  return `${text}\n${' '.repeat(Math.max(0, column - 1))}^`;
}
