import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { convertSigma, parseMapping, MappingError } from '../src/index.ts';

/** Each Sigma feature as the PDL it becomes (docs/sigma.md), with a mapping that keeps field names. */
const mapping = parseMapping(
  'name: t\nkeywordFields: [message]\nunmappedLogsource: warn\nplaceholders: {admins: [alice, bob]}\n',
);
const convert = (detection: string): string => {
  const [r] = convertSigma(`title: t\nlogsource: {product: x}\ndetection:\n${detection}`, { mapping });
  if (r?.status === 'converted') return r.rule.pdl;
  return `ERR ${r?.status === 'error' ? `${r.path}: ${r.reason}` : ''}`;
};

describe('Sigma detection to PDL', () => {
  const cases: [string, string][] = [
    [
      "  s:\n    CommandLine|windash|contains: ' -enc '\n  condition: s",
      'CommandLine ?= i" -enc " OR CommandLine ?= i" /enc " OR CommandLine ?= i" –enc " OR CommandLine ?= i" —enc " OR CommandLine ?= i" ―enc "',
    ],
    [
      "  s:\n    CommandLine|base64offset|contains: 'IEX'\n  condition: s",
      'CommandLine ?= i"SUVY" OR CommandLine ?= i"lFW" OR CommandLine ?= i"JRV"',
    ],
    [
      "  s:\n    CommandLine|wide|base64offset|contains: 'ps'\n  condition: s",
      'CommandLine ?= i"cABzA" OR CommandLine ?= i"AAcw" OR CommandLine ?= i"wAHMA"',
    ],
    [
      "  s:\n    DestinationIp|cidr: ['10.0.0.0/8', '172.16.0.0/14', '192.168.1.4/31', 'fe80::/10']\n  condition: s",
      'DestinationIp IN ["10.*", "172.16.*", "172.17.*", "172.18.*", "172.19.*", "192.168.1.4", "192.168.1.5", i"fe8*", i"fe9*", i"fea*", i"feb*"]',
    ],
    ["  s:\n    User|expand: '%admins%'\n  condition: s", 'User = i"alice" OR User = i"bob"'],
    [
      '  s:\n    ParentUser|fieldref: User\n    X|exists: false\n    Port|gte: 1024\n  condition: s',
      'ParentUser = User AND X = null AND Port >= 1024',
    ],
    [
      "  keywords:\n    - 'evil'\n    - 'bad*thing'\n  condition: keywords",
      'message ?= i"evil" OR message = i"*bad*thing*"',
    ],
    [
      "  s:\n    Image|endswith: 'a?.exe'\n    Cmd|re|i: '^x.*y$'\n    Cmd|cased: 'ABC'\n  condition: s",
      'Image ~= "(?is)^.*a.\\\\.exe$" AND Cmd ~= "(?i)^x.*y$" AND Cmd = "ABC"',
    ],
    [
      '  sel_a:\n    A: 1\n  sel_b:\n    B: 2\n  _x:\n    C: 3\n  f:\n    D: null\n  condition: 1 of sel_* and not f or all of them',
      '((A = 1 OR B = 2) AND NOT D = null) OR (A = 1 AND B = 2 AND D = null)',
    ],
    [
      "  s:\n    Image|endswith:\n      - '\\a.exe'\n      - '\\b.exe'\n    Cmd|contains|all: ['x', 'y']\n  condition: s",
      'Image IN [i"*\\\\a.exe", i"*\\\\b.exe"] AND (Cmd ?= i"x" AND Cmd ?= i"y")',
    ],
    // a backslash before * escapes it (pySigma): \\* is a backslash and a wildcard
    ["  s:\n    Path: 'C:\\Windows\\*\\x\\\\*.exe'\n  condition: s", 'Path = i"C:\\\\Windows\\*\\\\x\\\\*.exe"'],
    [
      '  s:\n    A: 1\n  condition: s | count() > 5',
      "ERR detection.condition: the aggregation expression '| count() > 5' is the deprecated Sigma v1 form; write a correlation rule instead",
    ],
    [
      '  s:\n    A|hour: 1\n  condition: s',
      "ERR detection.s.A|hour: the time modifier 'hour' is not supported: PDL has no date-part extraction",
    ],
    [
      '  s:\n    A: 1\n  condition: s and t',
      "ERR detection.condition: the condition names 't', which is not a search identifier of the detection",
    ],
    [
      "  s:\n    A|cidr: '::1/64'\n  condition: s",
      "ERR detection.s.A|cidr: the IPv6 network '::1/64' is not supported: only /128 and prefixes within the first group (up to /16) convert",
    ],
    [
      "  s:\n    A|utf16le: 'x'\n  condition: s",
      "ERR detection.s.A|utf16le: 'utf16le' without base64 or base64offset is not supported: a JSON event holds text, not UTF-16 bytes",
    ],
  ];
  for (const [detection, pdl] of cases)
    test(detection.replace(/\s+/g, ' ').trim(), () => assert.equal(convert(detection), pdl));

  test('a document that is not Sigma, and YAML errors, say so with where', () => {
    const [a, b] = convertSigma('title: x\nfoo: 1\n---\ntitle: [unclosed', { mapping });
    assert.deepEqual(a, {
      status: 'error',
      document: 0,
      sigma: { id: null, title: 'x' },
      path: '',
      reason: 'neither a rule (detection), a correlation rule (correlation) nor a filter (filter)',
    });
    assert.equal(b?.status, 'error');
    assert.match(b?.status === 'error' ? b.reason : '', /^not valid YAML \(line \d+, column \d+\)/);
  });

  test('a YAML text with thousands of errors on one long line is refused once, naming the first', () => {
    // Found by the fuzz suite: the yaml library's worded errors copied the line for each error (35 s).
    const [only, ...rest] = convertSigma(`title: x\nlist: ${'[a: b, '.repeat(40_000)}\n`, { mapping });
    assert.equal(rest.length, 0);
    const reason = only?.status === 'error' ? only.reason : '';
    const where = /^not valid YAML \(line (\d+), column (\d+)\): .* at line (\d+), column (\d+)$/.exec(reason);
    assert.ok(where, reason.slice(0, 300));
    assert.deepEqual([where[3], where[4]], [where[1], where[2]], 'the place is said once, the same both times');
  });

  test('mapping files: every problem names where it is', () => {
    assert.throws(
      () => parseMapping('name: m\nlogsources:\n  - match: {os: x}\n    condition: null'),
      new MappingError('logsources[0].match.os: only product, category and service can be matched'),
    );
    assert.throws(
      () => parseMapping('name: m\nfieldTemplate: x'),
      new MappingError('fieldTemplate must be a string containing {field}'),
    );
    assert.throws(() => parseMapping('name: m\nextra: 1'), new MappingError("unknown key 'extra' in the mapping"));
  });
});

test('a document whose aliases expand beyond the limit (billion laughs) is a failed document, not an exception (found by the fuzz suite)', () => {
  const laughs = ['a: &a [x, x, x, x, x, x, x, x, x]'];
  for (const [name, prev] of [
    ['b', 'a'],
    ['c', 'b'],
    ['d', 'c'],
    ['e', 'd'],
    ['f', 'e'],
  ])
    laughs.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
  const results = convertSigma(`${laughs.join('\n')}\n`, { mapping });
  assert.equal(results.length, 1);
  assert.equal(results[0]!.status, 'error');
  assert.match((results[0] as { reason: string }).reason, /^not a usable YAML document: .*alias/i);
});
