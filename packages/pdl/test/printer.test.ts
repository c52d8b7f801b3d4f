import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, print } from '../src/index.ts';
import type { Pipeline } from '../src/index.ts';
import { pipeline } from './arbitraries.ts';
import { stripSpans } from './helpers.ts';

const roundTrip = (text: string) => assert.deepEqual(stripSpans(parse(print(parse(text)))), stripSpans(parse(text)));

describe('printer', () => {
  test('canonical text', () => {
    assert.equal(print(parse('port=443 AND tags ?= "vpn"')), 'port = 443 AND tags ?= "vpn"');
    assert.equal(print(parse('| a=1 OR (b=2 AND NOT (c=3 OR d=4))')), 'a = 1 OR b = 2 AND NOT (c = 3 OR d = 4)');
    assert.equal(print(parse('(a=1 OR b=1) AND c=1')), '(a = 1 OR b = 1) AND c = 1');
    assert.equal(
      print(parse('eval x=(1+2)*3, y=1-(2-3), z = a - -1')),
      'eval x = (1 + 2) * 3, y = 1 - (2 - 3), z = a - -1',
    );
    assert.equal(print(parse('p = "C:\\\\Windows\\\\*\\\\a\\*.exe"')), 'p = "C:\\\\Windows\\\\*\\\\a\\*.exe"');
    assert.equal(
      print(parse('`odd field`.x = 1 AND `AND` = 2 AND `eval` = 3')),
      '`odd field`.x = 1 AND `AND` = 2 AND `eval` = 3',
    );
    assert.equal(
      print(
        parse(
          'temporal(ordered=true)[a=1 AS "a b"||b=2] timespan=5m group_by u emit=close reset=false suppress=1h where _temporal.matched>1',
        ),
      ),
      'temporal(ordered=true) [ a = 1 AS "a b" || b = 2 ] timespan=5m group_by u emit=close reset=false suppress=1h where _temporal.matched > 1',
    );
    assert.equal(
      print(parse('lookup "geo-ip.v2" ip AS src OUTPUT city AS geo.city, cc')),
      'lookup "geo-ip.v2" ip AS src OUTPUT city AS geo.city, cc',
    );
    assert.equal(
      print(parse('parse_csv l header="a;b" delimiter=";" | parse_kv m delimiter=":"')),
      'parse_csv l header="a;b" delimiter=";" | parse_kv m delimiter=":"',
    );
  });

  test('round trip of hand-written texts', () => {
    for (const text of [
      'proc.path="*\\\\nc.exe" | eval risk=if(port>1024, "low", "high"), who=upper(user)',
      'rename proc.path AS image | fields keep image, user',
      'NOT (tags ?= "int") | flatten',
      'value_count(a, b) timespan=1h group_by x, y where _aggregation.value >= 3 | value_avg(n) timespan=2d emit=close',
      'rex msg "(?<user>\\w+)@(?<dom>[^ ]+)" | eval n = replace(msg, "(?i)x", "$1"), m = coalesce(a, b, 1), k = round(-0.5, 2)',
      'a = -0 AND b = 1e21 AND c = 5e-324 AND d = [] AND e IN [null, true, "x"]',
      'x = "line\nbreak"',
    ]) {
      roundTrip(text);
    }
  });

  test('property: parse(print(ast)) equals ast on generated ASTs', () => {
    fc.assert(
      fc.property(pipeline, (ast) => {
        const text = print(ast as unknown as Pipeline);
        assert.deepEqual(stripSpans(parse(text)), stripSpans(ast), text);
      }),
      { numRuns: 500 },
    );
  });
});
