import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../auth/roles.ts';
import { apiError, isApiError } from '../core/errors.ts';
import { LookupResource, type LookupFile } from '../resources/lookup.ts';
import type { RouteModule } from './route-module.ts';
import { idParams, listOf, lookup, lookupId, lookupUpload, noContent } from '@weir/contract';
import { sendList } from './list-reply.ts';
import { handlerCheckedBody } from '../http/handler-checked-body.ts';
import { violationError } from '../http/request-violations.ts';
import { compiledSchema } from '../validation/json-schema.ts';
import type { ValidateFunction } from 'ajv';

type ById = { Params: { id: string } };
const uploadRoute = (body: object, schema: object) => ({
  ...handlerCheckedBody,
  schema: { consumes: ['multipart/form-data'], body, ...schema },
});

interface Upload {
  readonly id?: string;
  readonly file?: LookupFile;
}

/** The parts read, checked against the route's declared schema: a missing part is named. */
function checkedParts<U extends Upload>(validate: ValidateFunction, upload: Upload): U {
  const parts = {
    ...(upload.id === undefined ? {} : { id: upload.id }),
    ...(upload.file === undefined ? {} : { file: upload.file.filename }),
  };
  if (validate(parts)) return upload as U;
  const missing = validate.errors?.find((e) => e.keyword === 'required');
  if (missing) throw apiError('LOOKUP_PART_MISSING', (missing.params as { missingProperty: string }).missingProperty);
  throw violationError(validate.errors ?? [], 'body');
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
  const createBody = lookupUpload(true);
  const updateBody = lookupUpload(false);
  const createParts = compiledSchema(createBody);
  const updateParts = compiledSchema(updateBody);
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
      { config: { access: access.admin }, ...uploadRoute(createBody, { response: { 201: lookupId } }) },
      async (request, reply) => {
        const upload = checkedParts<Required<Upload>>(createParts, await readUpload(request, reply, maxBytes));
        const created = await lookups.create(upload.id, upload.file);
        return reply.code(201).header('location', '/api/lookups').send(created);
      },
    );

    scope.post<ById>(
      '/api/lookups/:id',
      {
        config: { access: access.admin },
        ...uploadRoute(updateBody, { params: idParams, response: { 200: lookupId } }),
      },
      async (request, reply) => {
        lookups.requireExisting(request.params.id);
        const upload = checkedParts<{ file: LookupFile }>(updateParts, await readUpload(request, reply, maxBytes));
        return lookups.update(request.params.id, upload.file);
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
