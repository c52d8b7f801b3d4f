import type { Span } from './ast.ts';
import { PdlCompileError, PdlSyntaxError, type PdlErrorCode } from './errors.ts';

/** An error found while compiling an AST, at the node's span: PdlCompileError for unknown lookups and invalid regexes. */
export function syntaxErrorAt(
  span: Span,
  detail: string,
  expected?: string,
  code: PdlErrorCode = 'SYNTAX',
): PdlSyntaxError {
  const at = { offset: span.start, line: span.line, column: span.column, expected: expected ?? null };
  return code === 'UNKNOWN_LOOKUP' || code === 'INVALID_REGEX'
    ? new PdlCompileError(detail, at, code)
    : new PdlSyntaxError(detail, at, code);
}
