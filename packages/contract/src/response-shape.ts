/**
 * A request schema as a response schema (the route's `response`, and the OpenAPI document's
 * answer): the same fields and types, none required and every object open. Fastify serialises a
 * response with its schema and drops what the schema does not name, so an answer is described,
 * never cut: a field added to a record, or one the schema forgets, still reaches the client.
 */
type Schema = Readonly<Record<string, unknown>>;

const described = new Set(['type', 'description', 'enum']);

export function responseShape(schema: object): Schema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    if (described.has(key)) out[key] = value;
    else if (key === 'properties')
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([name, field]) => [name, responseShape(field)]),
      );
    else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object'))
      out[key] = responseShape(value as Schema);
    else if (key === 'anyOf') out[key] = (value as Schema[]).map(responseShape);
  }
  if ([(schema as Schema).type].flat().includes('object') && typeof out.additionalProperties !== 'object')
    out.additionalProperties = true;
  return out;
}

/** An array of `items`, for list answers. */
export function listOf(items: object, description?: string): Schema {
  return { type: 'array', items: responseShape(items), ...(description === undefined ? {} : { description }) };
}

/** Any JSON value (a test's result, a consumed key or value). */
export const anyJson: Schema = { description: 'any JSON value' };
