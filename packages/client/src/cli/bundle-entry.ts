import { processMain } from './process-main.ts';

// The input of the built CLI (scripts/cli-build.ts → dist/cli/weirctl.js): runs weirctl when loaded.
await processMain();
