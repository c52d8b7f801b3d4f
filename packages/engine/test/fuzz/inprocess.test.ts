/**
 * The in-process part of the fuzz run (issue 13): PDL texts through the parser and validator,
 * lookup files through the lookup parser, properties files through the settings loader, each in a
 * watched worker thread (an input taking over 20 s is a hang). Counts: WEIR_FUZZ_PDL (100,000),
 * WEIR_FUZZ_FILES (5,000 of each file kind).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runInProcess } from './inprocess-run.ts';
import { fuzzSeed } from './rng.ts';

const seed = fuzzSeed();
const counts = {
  pdl: Number(process.env.WEIR_FUZZ_PDL ?? 100_000),
  lookup: Number(process.env.WEIR_FUZZ_FILES ?? 5000),
  properties: Number(process.env.WEIR_FUZZ_FILES ?? 5000),
};
console.log(`# in-process fuzz: seed ${seed} (replay: WEIR_FUZZ_SEED=${seed} npm run test:fuzz)`);

for (const target of ['pdl', 'lookup', 'properties'] as const) {
  test(
    `${target}: ${counts[target]} fuzzed inputs, each accepted or refused with the parser's own error, none hangs`,
    { timeout: 1_800_000 },
    async () => {
      const started = Date.now();
      const r = await runInProcess(target, seed, counts[target]);
      console.log(
        `# ${target}: ${counts[target]} inputs, ${r.accepted} accepted, ${r.rejected} refused with a clear error, ${r.failureCount} failures; ` +
          `slowest ${Math.round(r.slowest.ms)} ms (input ${r.slowest.index}); ${Math.round((Date.now() - started) / 1000)} s`,
      );
      for (const f of r.failures) console.log(`# FAIL ${target} input ${f.index}: ${f.error}\n#   ${f.input}`);
      assert.equal(r.accepted + r.rejected + r.failureCount, counts[target]);
      assert.equal(r.failureCount, 0, `seed ${seed}`);
    },
  );
}
