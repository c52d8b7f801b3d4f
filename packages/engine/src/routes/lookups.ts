import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../auth/roles.ts';
import { apiError, isApiError } from '../core/errors.ts';
import { LookupResource, type LookupFile } from '../resources/lookup.ts';
import type { RouteModule } from './route-module.ts';
import { idParams, listOf, lookup, lookupId, lookupUpload, noContent } from '@weir/contract';
import { sendList } from './list-reply.ts';
import { handlerCheckedBody } from '../http/handler-checked-body.ts';

type ById = { Params: { id: string } };
const uploadRoute = (id: boolean, schema: object) => ({
  ...handlerCheckedBody,
  schema: { consumes: ['multipart/form-data'], body: lookupUpload(id), ...schema },
});

interface Upload {
  readonly id?: string;
  readonly file?: LookupFile;
}

/** Reads the multipart parts `id` and `file`; a file over the limit → 413 before it is all read. */
async function readUpload(request: FastifyRequest, reply: FastifyReply, maxBytes: number): Promise<Upload> {
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
    // The rest of the body is not read: the connection is closed after the answer, else the unread
    // bytes stall it and the client's next request on it never gets an answer.
    void reply.header('connection', 'close');
    if (isApiError(err)) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw apiError('LOOKUP_TOO_LARGE', maxBytes);
    if (code === 'FST_FILES_LIMIT') throw apiError('VALIDATION', "Send exactly one file part, named 'file'.");
    throw apiError('VALIDATION', `The multipart body could not be read: ${(err as Error).message}`);
  }
  return { id, file };
}

/** Spec: Lookups. The HTTP side (multipart) only; the rules are the LookupResource's. */
export const lookupRoutes: RouteModule = async (app, ctx) => {
  const maxBytes = ctx.settings.get('weir.lookup.max-bytes');
  const lookups = new LookupResource(ctx.store, maxBytes, ctx.settings.get('weir.lookup.max-total-bytes'));
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: maxBytes } });

    scope.get(
      '/api/lookups',
      { config: { access: access.member }, schema: { response: { 200: listOf(lookup), 304: noContent } } },
      async (request, reply) => sendList(request, reply, lookups.serialisedList()),
    );

    scope.get<ById>(
      '/api/lookups/:id',
      { config: { access: access.member }, schema: { params: idParams, response: { 200: lookup } } },
      async (request) => lookups.get(request.params.id),
    );

    scope.post(
      '/api/lookups',
      { config: { access: access.admin }, ...uploadRoute(true, { response: { 201: lookupId } }) },
      async (request, reply) => {
        const upload = await readUpload(request, reply, maxBytes);
        const created = await lookups.create(upload.id, upload.file);
        return reply.code(201).header('location', '/api/lookups').send(created);
      },
    );

    scope.post<ById>(
      '/api/lookups/:id',
      { config: { access: access.admin }, ...uploadRoute(false, { params: idParams, response: { 200: lookupId } }) },
      async (request, reply) => {
        lookups.requireExisting(request.params.id);
        return lookups.update(request.params.id, (await readUpload(request, reply, maxBytes)).file);
      },
    );

    scope.delete<ById>(
      '/api/lookups/:id',
      { config: { access: access.admin }, schema: { params: idParams, response: { 204: noContent } } },
      async (request, reply) => {
        await lookups.delete(request.params.id);
        return reply.code(204).send();
      },
    );
  });
};
