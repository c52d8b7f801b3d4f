import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  changeNoteHeader,
  listOf,
  maxChangeNoteLength,
  responseShape,
  versionDetail,
  versionDiff,
  versionParams,
  versionSummary,
} from '@weir/contract';
import { access } from '../auth/roles.ts';
import { domainError } from '../core/errors.ts';
import type { ConfigResource } from '../resources/config-resource.ts';
import { parseVersion, type Change } from '../resources/record-versions.ts';

type VersionRoute = { Params: { id: string; version?: string; from?: string; to?: string } };

/**
 * The change note of a write: the `X-Weir-Change-Note` header, percent-decoded when it holds `%`
 * escapes (a header is ASCII; encodeURIComponent carries any text), at most 1000 characters; a
 * blank note is none. Anything else is 400 naming the header.
 */
export function changeOf(request: FastifyRequest): Change {
  const raw = request.headers[changeNoteHeader];
  if (raw === undefined) return {};
  if (Array.isArray(raw)) throw domainError('CHANGE_NOTE_INVALID', 'is given more than once; send one');
  let note = raw;
  if (raw.includes('%')) {
    try {
      note = decodeURIComponent(raw);
    } catch {
      throw domainError(
        'CHANGE_NOTE_INVALID',
        'holds a % that does not start a valid percent-encoded UTF-8 sequence; encode the note with encodeURIComponent (a literal % is %25)',
      );
    }
  }
  note = note.trim();
  if (note.length > maxChangeNoteLength)
    throw domainError(
      'CHANGE_NOTE_INVALID',
      `is ${note.length} characters long; a change note has at most ${maxChangeNoteLength}`,
    );
  return note === '' ? {} : { note };
}

/**
 * The versions of one kind (docs/detection-as-code.md, "Versions"), next to its six spec routes:
 * `GET /api/<kind>/{id}/versions`, `…/versions/{version}`, `…/versions/{from}/diff/{to}` (member)
 * and `POST …/versions/{version}/rollback` (admin, audited as the write it makes; answers the
 * record as PUT does).
 */
export function registerVersionRoutes(app: FastifyInstance, resource: ConfigResource): void {
  const base = `/api/${resource.kind.path}/:id/versions`;
  const read = { config: { access: access.member } };
  const params = versionParams;
  const versions = resource.versions;

  app.get<VersionRoute>(
    base,
    { ...read, schema: { params, response: { 200: listOf(versionSummary) } } },
    async (request) => versions.list(resource.parseId(request.params.id)),
  );

  app.get<VersionRoute>(
    `${base}/:version`,
    { ...read, schema: { params, response: { 200: versionDetail } } },
    async (request) =>
      versions.get(resource.parseId(request.params.id), parseVersion('version', request.params.version!)),
  );

  app.get<VersionRoute>(
    `${base}/:from/diff/:to`,
    { ...read, schema: { params, response: { 200: versionDiff } } },
    async (request) => {
      const id = resource.parseId(request.params.id);
      const from = parseVersion('from', request.params.from!);
      const to = parseVersion('to', request.params.to!);
      return versions.diff(id, from, to);
    },
  );

  app.post<VersionRoute>(
    `${base}/:version/rollback`,
    {
      config: { access: access.admin },
      schema: { params, response: { 200: responseShape(resource.kind.schema) } },
    },
    async (request) =>
      resource.rollback(request.params.id, parseVersion('version', request.params.version!), changeOf(request)),
  );
}
