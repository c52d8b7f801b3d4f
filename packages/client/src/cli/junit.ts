import type { CheckOutcome } from './backtest-expectations.ts';

/** Text for an XML attribute or element: the five special characters escaped, characters XML 1.0 forbids dropped. */
export function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * JUnit XML as CI tools read it (Jenkins, GitLab, GitHub test reporters): one `<testsuite>` named
 * `suite`, one `<testcase>` per outcome (`classname`: the class CI groups them by), a failed one
 * with `<failure message="…">` holding the expected and actual counts. No times: the same run gives
 * the same bytes.
 */
export function junitXml(suite: string, classname: string, outcomes: readonly CheckOutcome[]): string {
  const failures = outcomes.filter((o) => !o.passed).length;
  const cases = outcomes.map((o) => {
    const head = `    <testcase classname="${xmlText(classname)}" name="${xmlText(o.name)}"`;
    if (o.passed) return `${head}/>`;
    const message = xmlText(o.message ?? 'failed');
    return `${head}>\n      <failure message="${message}" type="expectation">${message}</failure>\n    </testcase>`;
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="weirctl backtest" tests="${outcomes.length}" failures="${failures}" errors="0">\n` +
    `  <testsuite name="${xmlText(suite)}" tests="${outcomes.length}" failures="${failures}" errors="0" skipped="0">\n` +
    cases.map((c) => `${c}\n`).join('') +
    `  </testsuite>\n</testsuites>\n`
  );
}
