import { compile, isPdlSyntaxError } from '@weir/pdl';
import type { CompiledPdl, CompileOptions } from '@weir/pdl';
import { DefinitionViolation } from './task-definition-error.ts';
import type { TaskEnvironment } from './task-function.ts';

/**
 * Compiles PDL of a definition key once; a syntax error names the key and the PDL line and column.
 * `prefix` is text put before the user's PDL (EVAL's `eval <field>=`): columns count from the user's text.
 */
export function definitionPdl(
  key: string,
  source: string,
  env: TaskEnvironment,
  options: CompileOptions = {},
  prefix = '',
): CompiledPdl {
  const pdl = env.pdl ?? compile;
  try {
    return pdl(prefix + source, { lookups: env.lookups, now: env.now, ...options });
  } catch (error) {
    if (isPdlSyntaxError(error)) {
      const column = error.line === 1 ? Math.max(1, error.column - prefix.length) : error.column;
      throw DefinitionViolation.of(key, `PDL line ${error.line}, column ${column}: ${error.detail}`);
    }
    throw DefinitionViolation.of(key, (error as Error).message);
  }
}
