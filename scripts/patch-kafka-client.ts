/**
 * `postinstall`: Weir's patch of the Kafka client @platformatic/kafka (docs/architecture.md, "The
 * Kafka client"). It copies scripts/kafka-client-patch/weir-record-encoder.js into the client's
 * dist/protocol/ and makes records.js encode a produce batch's records into one Buffer and take the
 * batch's CRC32C over its chunks (the client's own code builds several small Buffers per record and
 * concatenates the request twice). Idempotent; run again after any install (`node scripts/patch-kafka-client.ts`).
 * When the client's code no longer has the lines the patch replaces (a new client version), it
 * changes nothing, says so and exits 0: the client then works as published, only slower, and the
 * unit test packages/engine/test/kafka/client-patch.test.ts fails until the patch is brought up to date.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const marker = 'weir-record-encoder.js';

/** Each edit: the client's exact text and what replaces it. */
const edits: readonly { readonly from: string; readonly to: string }[] = [
  {
    from: `import { Writer } from "./writer.js";\n`,
    to: `import { Writer } from "./writer.js";\nimport { encodeRecords, recordsCrc32c } from "./${marker}"; // Weir's patch (scripts/patch-kafka-client.ts)\n`,
  },
  {
    from: `    const buffer = new DynamicBuffer();
    for (let i = 0; i < messages.length; i++) {
        let ts = messages[i].timestamp ?? now;
        /* c8 ignore next 3 - Hard to test */
        if (typeof ts === 'number') {
            ts = BigInt(ts);
        }
        messages[i].timestamp = ts;
        if (ts > maxTimestamp)
            maxTimestamp = ts;
        const record = createRecord(messages[i], i, firstTimestamp);
        buffer.appendFrom(record.dynamicBuffer);
    }
`,
    to: `    for (let i = 0; i < messages.length; i++) {
        let ts = messages[i].timestamp ?? now;
        /* c8 ignore next 3 - Hard to test */
        if (typeof ts === 'number') {
            ts = BigInt(ts);
        }
        messages[i].timestamp = ts;
        if (ts > maxTimestamp)
            maxTimestamp = ts;
    }
    const buffer = new DynamicBuffer(encodeRecords(messages, firstTimestamp));
`,
  },
  {
    from: `.appendUnsignedInt32(crc32c(writer.dynamicBuffer), false)`,
    to: `.appendUnsignedInt32(recordsCrc32c(writer.dynamicBuffer, crc32c), false)`,
  },
];

function clientDist(): string {
  // resolved as the engine resolves it (hoisted to the root node_modules, or the engine's own)
  const require = createRequire(path.join(root, 'packages', 'engine', 'package.json'));
  return path.dirname(require.resolve('@platformatic/kafka'));
}

export function patchKafkaClient(): 'patched' | 'already' | 'unknown-client' {
  const protocol = path.join(clientDist(), 'protocol');
  const file = path.join(protocol, 'records.js');
  const text = readFileSync(file, 'utf8');
  // the encoder is copied every time, so a change of it reaches an installed client
  copyFileSync(path.join(root, 'scripts', 'kafka-client-patch', marker), path.join(protocol, marker));
  if (text.includes(marker)) return 'already';
  if (!edits.every((e) => text.includes(e.from))) return 'unknown-client';
  writeFileSync(
    file,
    edits.reduce((t, e) => t.replace(e.from, () => e.to), text),
  );
  return 'patched';
}

if (import.meta.main) {
  const result = patchKafkaClient();
  if (result === 'unknown-client')
    console.warn(
      "patch-kafka-client: @platformatic/kafka's records.js does not have the lines Weir's patch replaces (a new client version?): left as published",
    );
  else console.log(`patch-kafka-client: @platformatic/kafka ${result === 'patched' ? 'patched' : 'already patched'}`);
}
