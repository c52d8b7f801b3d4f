import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { encodeRecords, recordsCrc32c } from '../../../../scripts/kafka-client-patch/weir-record-encoder.js';

/** The installed client's dist/protocol folder, resolved as the engine resolves the client. */
const protocol = path.join(path.dirname(createRequire(import.meta.url).resolve('@platformatic/kafka')), 'protocol');
const source = new URL('../../../../scripts/kafka-client-patch/weir-record-encoder.js', import.meta.url);

interface ClientRecords {
  createRecord(message: unknown, offsetDelta: number, firstTimestamp: bigint): { buffer: Buffer };
  createRecordsBatch(messages: unknown[], options?: Record<string, unknown>): { buffer: Buffer };
  readRecordsBatch(reader: unknown): {
    crc: number;
    firstTimestamp: bigint;
    records: {
      timestampDelta: bigint;
      offsetDelta: number;
      key: Buffer | null;
      value: Buffer | null;
      headers: [Buffer, Buffer][];
    }[];
  };
}
const records = (await import(pathToFileURL(path.join(protocol, 'records.js')).href)) as ClientRecords;
const { Reader } = (await import(pathToFileURL(path.join(protocol, 'reader.js')).href)) as {
  Reader: { from(buffer: Buffer): unknown };
};
const { crc32c, jsCRC32C } = (await import(pathToFileURL(path.join(protocol, 'crc32c.js')).href)) as {
  crc32c: (data: unknown) => number;
  jsCRC32C: (data: Buffer) => number;
};

const t0 = BigInt(Date.UTC(2023, 0, 1));
const headers = (entries: [string, string][]) => new Map(entries.map(([k, v]) => [Buffer.from(k), Buffer.from(v)]));
/** Keys and values of every length class: null, empty, one-byte and multi-byte varint lengths, timestamps before and after the first. */
const messages = () => [
  { key: Buffer.from('k1'), value: Buffer.from('v1'), headers: new Map(), timestamp: t0 },
  { key: undefined, value: Buffer.from('no key'), headers: new Map(), timestamp: t0 + 5n },
  { key: Buffer.alloc(0), value: Buffer.alloc(0), headers: new Map(), timestamp: t0 - 3_000n },
  {
    key: Buffer.from('h'),
    value: Buffer.alloc(200, 'x'),
    headers: headers([
      ['a', '1'],
      ['bb', ''],
    ]),
    timestamp: t0 + 86_400_000n,
  },
  { key: Buffer.alloc(70_000, 'k'), value: null, headers: new Map(), timestamp: t0 - 3_600_000n },
  ...Array.from({ length: 300 }, (_, i) => ({
    key: Buffer.from(`key-${i}`),
    value: Buffer.alloc(i * 7, i % 256),
    headers: new Map(),
    timestamp: t0 + BigInt(i * 1000),
  })),
];

test("the installed client is patched with this repository's encoder (postinstall: scripts/patch-kafka-client.ts)", () => {
  assert.ok(
    readFileSync(path.join(protocol, 'records.js'), 'utf8').includes('weir-record-encoder.js'),
    'records.js uses the encoder: run `node scripts/patch-kafka-client.ts`, or bring the patch up to date with the client',
  );
  assert.equal(readFileSync(path.join(protocol, 'weir-record-encoder.js'), 'utf8'), readFileSync(source, 'utf8'));
});

test("encodeRecords writes the client's own record bytes (createRecord, record by record)", () => {
  const list = messages();
  const expected = Buffer.concat(list.map((m, i) => records.createRecord(m, i, t0).buffer));
  assert.deepEqual(encodeRecords(list, t0), expected);
});

test('a patched batch reads back as written, with a valid CRC32C', () => {
  const list = messages();
  const batch = records.createRecordsBatch(list, { producerId: 7n, producerEpoch: 1 }).buffer;
  const read = records.readRecordsBatch(Reader.from(batch));
  // the CRC covers the batch from its attributes (offset 21) to the end
  assert.equal(read.crc, jsCRC32C(batch.subarray(21)));
  assert.equal(read.records.length, list.length);
  read.records.forEach((r, i) => {
    const m = messages()[i]!;
    assert.equal(r.offsetDelta, i);
    assert.equal(read.firstTimestamp + r.timestampDelta, m.timestamp);
    assert.deepEqual(r.key ?? null, m.key ?? null);
    assert.deepEqual(r.value ?? null, m.value ?? null);
    assert.deepEqual(
      r.headers.map(([k, v]) => [k.toString(), v.toString()]),
      [...m.headers].map(([k, v]) => [k.toString(), v.toString()]),
    );
  });
});

test("recordsCrc32c over a chunk list equals the client's CRC32C of the concatenation", () => {
  const chunks = [Buffer.from('attributes'), Buffer.alloc(0), Buffer.alloc(100_000, 3), Buffer.from([0, 255, 17])];
  const whole = Buffer.concat(chunks);
  assert.equal(recordsCrc32c({ buffers: chunks }, crc32c), jsCRC32C(whole));
  assert.equal(recordsCrc32c({ buffers: [] }, crc32c), jsCRC32C(Buffer.alloc(0)));
});
