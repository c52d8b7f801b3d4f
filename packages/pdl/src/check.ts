import { compile } from './compiler.ts';
import type { CompileOptions } from './compiler.ts';
import { isPdlSyntaxError } from './errors.ts';

export type CheckResult =
  | { readonly result: true }
  | {
      readonly result: false;
      readonly error: { readonly message: string; readonly line: number; readonly column: number };
    };

/**
 * Validates PDL text as saving a rule or task would: syntax, functions, regexes and, when
 * `lookups` is given, lookup ids. Never throws for bad PDL.
 */
export function check(text: string, options?: Pick<CompileOptions, 'lookups' | 'limits'>): CheckResult {
  try {
    compile(text, options);
    return { result: true };
  } catch (error) {
    if (isPdlSyntaxError(error))
      return { result: false, error: { message: error.message, line: error.line, column: error.column } };
    throw error;
  }
}
