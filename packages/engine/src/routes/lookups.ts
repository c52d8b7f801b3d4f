import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { access } from '../auth/roles.ts';
import { apiError, isApiError } from '../errors.ts';
import { describeError } from '../kafka/weir-topic-setup.ts';
import { LookupFormatError, parseLookupFile, type LookupRow } from '../resources/lookup-table.ts';
import { isStringId, stringIdRule } from '../resources/ids.ts';
import { SerialQueue } from '../serial-queue.ts';
import type { ConfigStore } from '../store/config-store.ts';
import type { RouteModule } from './route-module.ts';

/** A lookup as stored and shown (spec: Lookup). */
export interface Lookup {
  readonly id: string;
  readonly content: LookupRow[];
}

type ById = { Params: { id: string } };
const lookupNames = { one: 'lookup', many: 'lookups' } as const;
const idParams = { type: 'object', properties: { id: { type: 'string' } } } as const;

interface Upload {
  readonly id?: string;
  readonly file?: { readonly data: Buffer; readonly filename: string; readonly mimetype: string };
}

/** Reads the multipart parts `id` and `file`; a file over the limit → 413 before it is all read. */
async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) throw apiError('LOOKUP_NOT_MULTIPART');
  let id: string | undefined;
  let file: Upload['file'];
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 8, fieldSize: 4096 } })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'file') file = { data, filename: part.filename, mimetype: part.mimetype };
      } else if (part.fieldname === 'id') {
        id = String(part.value);
      }
    }
  } catch (err) {
    if (isApiError(err)) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw apiError('LOOKUP_TOO_LARGE', maxBytes);
    if (code === 'FST_FILES_LIMIT') throw apiError('VALIDATION', 'Send exactly one file part, named \'file\'.');
    throw apiError('VALIDATION', `The multipart body could not be read: ${(err as Error).message}`);
  }
  return { id, file };
}

function parsed(upload: Upload): LookupRow[] {
  if (!upload.file) throw apiError('LOOKUP_PART_MISSING', 'file');
  try {
    return parseLookupFile(upload.file.data, upload.file.filename, upload.file.mimetype);
  } catch (err) {
    if (err instanceof LookupFormatError) throw apiError('LOOKUP_INVALID', upload.file.filename || 'file', err.message);
    throw err;
  }
}

function checkedId(raw: string): string {
  if (!isStringId(raw)) throw apiError('RESOURCE_ID_INVALID', lookupNames, raw, stringIdRule);
  return raw;
}

async function save(store: ConfigStore, lookup: Lookup, maxBytes: number): Promise<void> {
  try {
    await store.put('lookups', lookup.id, lookup);
  } catch (err) {
    if (/MESSAGE_TOO_LARGE|RECORD_LIST_TOO_LARGE|too large/i.test(describeError(err))) throw apiError('LOOKUP_TOO_LARGE', maxBytes);
    throw err;
  }
}

/**
 * Spec: Lookups. The upload is parsed completely before anything is stored, and an update replaces
 * the whole content in one store write, so a bad file never changes the stored lookup.
 */
export const lookupRoutes: RouteModule = async (app, ctx) => {
  const maxBytes = ctx.settings.get('weir.lookup.max-bytes');
  const writes = new SerialQueue();
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: maxBytes } });

    scope.get('/api/lookups', { config: { access: access.member } }, async () => ctx.store.list<Lookup>('lookups'));

    scope.get<ById>('/api/lookups/:id', { config: { access: access.member }, schema: { params: idParams } }, async (request) => {
      const lookup = ctx.store.get<Lookup>('lookups', request.params.id);
      if (!lookup) throw apiError('RESOURCE_MISSING', lookupNames);
      return lookup;
    });

    scope.post('/api/lookups', { config: { access: access.admin } }, async (request, reply) => {
      const upload = await readUpload(request, maxBytes);
      if (upload.id === undefined) throw apiError('LOOKUP_PART_MISSING', 'id');
      const id = checkedId(upload.id);
      const content = parsed(upload);
      await writes.run(async () => {
        if (ctx.store.get('lookups', id)) throw apiError('RESOURCE_EXISTS', lookupNames);
        await save(ctx.store, { id, content }, maxBytes);
      });
      return reply.code(201).header('location', '/api/lookups').send({ id });
    });

    scope.post<ById>('/api/lookups/:id', { config: { access: access.admin }, schema: { params: idParams } }, async (request) => {
      const { id } = request.params;
      if (!ctx.store.get('lookups', id)) throw apiError('RESOURCE_UPDATE_MISSING', lookupNames);
      const content = parsed(await readUpload(request, maxBytes));
      await writes.run(async () => {
        if (!ctx.store.get('lookups', id)) throw apiError('RESOURCE_UPDATE_MISSING', lookupNames);
        await save(ctx.store, { id, content }, maxBytes);
      });
      return { id };
    });

    scope.delete<ById>('/api/lookups/:id', { config: { access: access.admin }, schema: { params: idParams } }, async (request, reply) => {
      const deleted = await writes.run(() => ctx.store.delete('lookups', request.params.id));
      if (!deleted) throw apiError('RESOURCE_DELETE_MISSING', lookupNames);
      return reply.code(204).send();
    });
  });
};
