import assert from 'node:assert/strict';
import { test } from 'node:test';
import { weirRuleId } from '../src/documents.ts';

test("weirRuleId: sigma-<id>, else sigma-<name>, else sigma-<title slug> (docs/sigma.md, 'Rule ids')", () => {
  assert.equal(
    weirRuleId('ca2092a1-c273-4878-9b4b-0d60115bf5ea', 'n', 'T'),
    'sigma-ca2092a1-c273-4878-9b4b-0d60115bf5ea',
  );
  assert.equal(weirRuleId(null, 'many_failed_logins', 'T'), 'sigma-many_failed_logins');
  assert.equal(
    weirRuleId('', '', 'Suspicious  PowerShell -EncodedCommand!'),
    'sigma-suspicious-powershell-encodedcommand',
  );
  assert.equal(weirRuleId(null, null, '--Ünïcode only: ✓--'), 'sigma-n-code-only');
  assert.equal(weirRuleId(null, null, '???'), 'sigma-untitled');
  assert.equal(weirRuleId(null, null, 'a'.repeat(100)), `sigma-${'a'.repeat(80)}`);
});
