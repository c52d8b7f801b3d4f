import type { Span } from './ast.ts';
import { PdlSyntaxError } from './errors.ts';

/** A PdlSyntaxError found while compiling an AST (unknown lookup id, invalid regex in a hand-built AST). */
export function syntaxErrorAt(span: Span, detail: string, expected?: string): PdlSyntaxError {
  return new PdlSyntaxError(detail, { offset: span.start, line: span.line, column: span.column, expected: expected ?? null });
}
