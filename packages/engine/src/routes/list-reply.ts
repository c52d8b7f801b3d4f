import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHolds } from '../core/etag.ts';
import type { SerialisedList } from '../resources/serialised-list.ts';

/** A collection's answer (docs/api.md, Polling a collection): its `ETag`; 304 without a body when `If-None-Match` holds it. */
export function sendList(request: FastifyRequest, reply: FastifyReply, list: SerialisedList): FastifyReply {
  reply.header('etag', list.etag);
  if (ifNoneMatchHolds(request.headers['if-none-match'], list.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(list.body);
}
