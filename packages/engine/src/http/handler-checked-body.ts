import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { compiledSchema } from '../validation/json-schema.ts';

/**
 * A route option for bodies that are not JSON the route schema could check as sent, and are checked
 * once where they are handled: configuration records (earlier forms become the latest form first,
 * then the resource checks them on save, ConfigResource), multipart uploads, the test endpoints'
 * text and the Sigma YAML. The route still declares the body schema, for the API document; its
 * params and query string are checked by their schemas as on every route.
 */
export const handlerCheckedBody = {
  validatorCompiler: ({ schema, httpPart }: FastifyRouteSchemaDef<object>) =>
    httpPart === 'body' ? () => true : compiledSchema(schema, httpPart),
};
