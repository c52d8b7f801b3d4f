import assert from 'node:assert/strict';
import { test } from 'node:test';
import { junitXml, xmlText } from '../../src/cli/junit.ts';

test('JUnit XML: one testsuite, a testcase per outcome, a failure with its message; counts in both headers', () => {
  assert.equal(
    junitXml('tests/expect.yml', 'tests/logins.ndjson', [
      { name: 'rule a: exactly 2', passed: true },
      { name: 'rule b: at least 1', passed: false, message: 'expected at least 1 match(es), found 0 (e.yml:3:3)' },
    ]),
    `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="weirctl backtest" tests="2" failures="1" errors="0">
  <testsuite name="tests/expect.yml" tests="2" failures="1" errors="0" skipped="0">
    <testcase classname="tests/logins.ndjson" name="rule a: exactly 2"/>
    <testcase classname="tests/logins.ndjson" name="rule b: at least 1">
      <failure message="expected at least 1 match(es), found 0 (e.yml:3:3)" type="expectation">expected at least 1 match(es), found 0 (e.yml:3:3)</failure>
    </testcase>
  </testsuite>
</testsuites>
`,
  );
});

test('names and messages are escaped, and characters XML cannot hold are dropped', () => {
  assert.equal(xmlText(`a<b>&"c"'d'\u0001\u0007e\tf`), 'a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;e\tf');
  const xml = junitXml('s', 'c', [{ name: 'rule <x>&"y"', passed: false, message: 'found 1 > 0' }]);
  assert.match(xml, /name="rule &lt;x&gt;&amp;&quot;y&quot;"/);
  assert.match(xml, /<failure message="found 1 &gt; 0" type="expectation">found 1 &gt; 0<\/failure>/);
});
