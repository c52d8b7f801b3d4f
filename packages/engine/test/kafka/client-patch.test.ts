import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  ClientPatchApp,
  clientPatch,
  installedClient,
  patchedFiles,
  postinstallPatchArgs,
  root,
} from '../helpers/client-patch-app.ts';

/** Weir's patch of the installed client (patches/README.md): its encoder, and the client's own protocol code. */
const protocol = path.join(installedClient, 'dist', 'protocol');
const load = async (file: string) => (await import(pathToFileURL(path.join(protocol, file)).href)) as unknown;
interface Encoder {
  encodeRecords(messages: readonly unknown[], firstTimestamp: bigint): Buffer;
  recordsCrc32c(dynamicBuffer: { readonly buffers: readonly Buffer[] }, fallback: (data: unknown) => number): number;
}

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
// loaded by the tests that use them, so that an unpatched client fails the patch checks with their own message
const encoder = async () => (await load('weir-record-encoder.js')) as Encoder;
const clientRecords = async () => (await load('records.js')) as ClientRecords;
const { Reader } = (await load('reader.js')) as { Reader: { from(buffer: Buffer): unknown } };
const { crc32c, jsCRC32C } = (await load('crc32c.js')) as {
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

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

test('the client is pinned exactly at the version its patch was made for, and that version is installed', () => {
  const { version } = clientPatch();
  const engine = readJson<{ dependencies: Record<string, string> }>(path.join(root, 'packages/engine/package.json'));
  assert.equal(engine.dependencies['@platformatic/kafka'], version);
  const lock = readJson<{ packages: Record<string, { version: string }> }>(path.join(root, 'package-lock.json'));
  assert.equal(lock.packages['node_modules/@platformatic/kafka']?.version, version);
  assert.equal(readJson<{ version: string }>(path.join(installedClient, 'package.json')).version, version);
  // hoisted to the root node_modules, the one copy patch-package patches
  assert.equal(installedClient, path.join(root, 'node_modules', '@platformatic', 'kafka'));
});

test("the engine's postinstall applies the patch as the root's does (`npm install … -w packages/engine` runs only the engine's)", () => {
  assert.deepEqual(postinstallPatchArgs('packages/engine'), postinstallPatchArgs());
  const engine = readJson<{ scripts: { postinstall: string } }>(path.join(root, 'packages/engine/package.json'));
  assert.match(engine.scripts.postinstall, /^cd \.\.\/\.\. && patch-package /);
});

test('the installed client is the published one with patches/@platformatic+kafka+<version>.patch applied, byte for byte', (t) => {
  const app = new ClientPatchApp();
  t.after(() => app.remove());
  const files = patchedFiles();
  assert.deepEqual(files, [
    'dist/clients/consumer/messages-stream.js',
    'dist/clients/producer/producer.js',
    'dist/protocol/records.js',
    'dist/protocol/weir-record-encoder.d.ts',
    'dist/protocol/weir-record-encoder.js',
  ]);
  // the patch taken out of the copy (a no-op when it is not in) gives the published client...
  app.unpatch();
  assert.ok(!app.read('dist/protocol/records.js').includes('weir-record-encoder'), 'the published records.js');
  assert.ok(!app.has('dist/protocol/weir-record-encoder.js'));
  assert.ok(!app.read('dist/clients/producer/producer.js').includes("Weir's patch"), 'the published producer.js');
  assert.ok(
    !app.read('dist/clients/consumer/messages-stream.js').includes("Weir's patch"),
    'the published messages-stream.js',
  );
  // ...and put back in as postinstall does, the installed files
  const run = app.patchPackage(postinstallPatchArgs());
  assert.equal(run.status, 0, run.output);
  assert.match(run.output, /@platformatic\/kafka@\d+\.\d+\.\d+ ✔/);
  for (const file of files)
    assert.equal(
      app.read(file),
      readFileSync(path.join(installedClient, file), 'utf8'),
      `installed ${file} is not the published one plus the patch: run \`npm ci\`, or bring the patch up to date (patches/README.md)`,
    );
});

test("encodeRecords writes the client's own record bytes (createRecord, record by record)", async () => {
  const [{ encodeRecords }, records] = await Promise.all([encoder(), clientRecords()]);
  const list = messages();
  const expected = Buffer.concat(list.map((m, i) => records.createRecord(m, i, t0).buffer));
  assert.deepEqual(encodeRecords(list, t0), expected);
});

test('a patched batch reads back as written, with a valid CRC32C', async () => {
  const records = await clientRecords();
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

test("recordsCrc32c over a chunk list equals the client's CRC32C of the concatenation", async () => {
  const { recordsCrc32c } = await encoder();
  const chunks = [Buffer.from('attributes'), Buffer.alloc(0), Buffer.alloc(100_000, 3), Buffer.from([0, 255, 17])];
  const whole = Buffer.concat(chunks);
  assert.equal(recordsCrc32c({ buffers: chunks }, crc32c), jsCRC32C(whole));
  assert.equal(recordsCrc32c({ buffers: [] }, crc32c), jsCRC32C(Buffer.alloc(0)));
});
