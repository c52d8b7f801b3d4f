import { randomBytes } from 'node:crypto';

export interface FormPart {
  readonly name: string;
  readonly value: string | Buffer;
  /** Makes the part a file part. */
  readonly filename?: string;
  readonly contentType?: string;
}

/** A multipart/form-data body and its content type, as a browser would send it. */
export function multipartBody(parts: readonly FormPart[]): { body: Buffer; contentType: string } {
  const boundary = `----weir${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined)
      head += `; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}`;
    chunks.push(
      Buffer.from(`${head}\r\n\r\n`),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
