import { compile, isPdlSyntaxError } from '@weir/pdl';
import { fail } from './errors.ts';

/** Checks generated PDL with Weir's own compiler; a failure here is a converter defect, reported as such. */
export function checkPdl(pdl: string, path: string): void {
  try {
    compile(pdl);
  } catch (error) {
    if (isPdlSyntaxError(error))
      fail(path, `the generated PDL does not compile (${error.message}); please report this rule`);
    throw error;
  }
}
