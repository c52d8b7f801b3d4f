import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPdl } from '../src/checkPdl.ts';
import { SigmaConversionError } from '../src/errors.ts';

test('checkPdl passes PDL that compiles and reports PDL that does not as a converter defect, with where', () => {
  checkPdl('Image = "*\\\\cmd.exe" AND EventID = 1', 'detection');
  assert.throws(
    () => checkPdl('Image = ', 'detection.selection'),
    (error: unknown) => {
      assert.ok(error instanceof SigmaConversionError);
      assert.equal(error.path, 'detection.selection');
      assert.equal(
        error.message,
        "the generated PDL does not compile (line 1, column 9: expected a value after '=', found end of input); please report this rule",
      );
      return true;
    },
  );
});
