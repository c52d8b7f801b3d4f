// Compares re2js (linear time) with native RegExp on typical rule patterns, and shows the
// catastrophic case native RegExp cannot bound. Run: node_modules/.bin/node bench/pdl-regex.ts
import { RE2JS } from 're2js';

const inputs = [
  'C:\\Windows\\System32\\cmd.exe /c whoami /all',
  'powershell.exe -nop -w hidden -enc SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcAZQBiAEMAbABpAGUAbgB0ACkA',
  'GET /index.php?id=1%20UNION%20SELECT%20password%20FROM%20users HTTP/1.1',
  'user=alice src=10.0.0.1 dst=10.0.0.2 action=allowed bytes=5120',
];
const patterns = [
  '(?i)\\\\cmd\\.exe',
  '(?i)-enc(odedcommand)?\\s+[A-Za-z0-9+/=]{20,}',
  '(?i)union\\s+select',
  '\\d+\\.\\d+\\.\\d+\\.\\d+',
];

function bench(name: string, test: (p: number, s: string) => boolean): number {
  const rounds = 50_000;
  let hits = 0;
  const start = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (let p = 0; p < patterns.length; p++) for (const s of inputs) if (test(p, s)) hits++;
  }
  const ns = ((performance.now() - start) * 1e6) / (rounds * patterns.length * inputs.length);
  console.log(`${name.padEnd(10)} ${ns.toFixed(0).padStart(6)} ns/test (hits ${hits})`);
  return ns;
}

const re2 = patterns.map((p) => RE2JS.compile(p));
const native = patterns.map((p) => new RegExp(p.replace('(?i)', ''), p.startsWith('(?i)') ? 'i' : ''));
const a = bench('re2js', (p, s) => (re2[p] as RE2JS).test(s));
const b = bench('RegExp', (p, s) => (native[p] as RegExp).test(s));
console.log(`re2js / RegExp: ${(a / b).toFixed(1)}x`);

const evil = 'a'.repeat(28) + '!';
let t = performance.now();
RE2JS.compile('^(a+)+$').test(evil);
console.log(`catastrophic ^(a+)+$ on 29 chars: re2js ${(performance.now() - t).toFixed(2)} ms`);
t = performance.now();
/^(a+)+$/.test(evil);
console.log(`catastrophic ^(a+)+$ on 29 chars: RegExp ${(performance.now() - t).toFixed(0)} ms`);

// The literal fast path of compileUserRegex for plain-text patterns.
const { compileUserRegex } = await import('../packages/pdl/src/regex.ts');
const literalPattern = '(?i)\\\\cmd.exe'.replace('.', '\\.');
const user = compileUserRegex(literalPattern);
const re2Only = RE2JS.compile(literalPattern);
for (const [name, test] of [
  ['re2js literal', (s: string) => re2Only.test(s)],
  ['fast path', (s: string) => user.test(s)],
] as const) {
  const start = performance.now();
  for (let r = 0; r < 200_000; r++) for (const s of inputs) test(s);
  console.log(
    `${name.padEnd(14)} ${(((performance.now() - start) * 1e6) / (200_000 * inputs.length)).toFixed(0)} ns/test`,
  );
}
