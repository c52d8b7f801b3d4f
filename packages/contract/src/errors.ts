/**
 * The one registry of API errors (spec: Errors). Every text of the spec lives here and only here;
 * docs/api.md lists every code (a test checks). The engine's handlers throw `apiError(code, ...)`;
 * the SDK reads the body (`ErrorBody`) of every error it answers.
 */
export const errorStatus = {
  400: { status: 'BAD_REQUEST', message: 'Resource validation failed' },
  404: { status: 'NOT_FOUND', message: 'Resource not found' },
  409: { status: 'CONFLICT', message: 'Resource already exists' },
  408: { status: 'REQUEST_TIMEOUT', message: 'Request timeout' },
  413: { status: 'PAYLOAD_TOO_LARGE', message: 'Request body too large' },
  414: { status: 'URI_TOO_LONG', message: 'Request URI too long' },
  415: { status: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported media type' },
  429: { status: 'TOO_MANY_REQUESTS', message: 'Too many requests' },
  431: { status: 'REQUEST_HEADER_FIELDS_TOO_LARGE', message: 'Request header fields too large' },
  500: { status: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' },
  503: { status: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' },
} as const;
export type ErrorHttpStatus = keyof typeof errorStatus;

/** The names of a resource kind, as the messages use them (resources.ts: `names`). */
export type KindNames = { readonly one: string; readonly many: string };
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** code → [HTTP status, debugMessage template]. */
export const errorCatalog = {
  ALREADY_INITIALIZED: [409, () => 'API and users are already initialized.'],
  USER_EXISTS: [409, () => 'User already exists, can not create a new one. Please use update (PUT) endpoint.'],
  USER_MISSING: [404, () => 'Provided username does not exist'],
  SELF_DELETE: [400, () => 'Authenticated user is not allowed to delete herself'],
  LAST_ADMIN: [
    400,
    (action: string) =>
      `Unable to ${action}: it is the last user with the admin role, and Weir must keep at least one admin.`,
  ],
  ROLE_CHANGE_FORBIDDEN: [
    400,
    () => 'Only an admin may change roles; leave roles out or unchanged when updating your own user.',
  ],
  PASSWORD_POLICY: [400, (rule: string) => `The password does not meet the password policy: ${rule}.`],
  USERNAME_MISMATCH: [
    400,
    (path: string, body: string) =>
      `The username in the path (${path}) differs from the username in the body (${body}); a username cannot be changed.`,
  ],
  ENGINE_NOT_STOPPED: [
    400,
    (state: string) => `Unable to start engine, please stop it properly. Current state is ${state}`,
  ],
  NODE_MISSING: [404, () => 'Requested node does not exist'],
  ALERT_MISSING: [404, (id: string) => `Requested alert does not exist: ${id}`],
  NODE_MISMATCH: [
    400,
    () => 'Unable to remove node. In order to remove properly the node must match the provided UUID',
  ],
  NODE_NOT_STOPPED: [
    400,
    () => 'Unable to remove node. In order to remove properly the node state must be NOT_RUNNING',
  ],
  TOPIC_MISSING: [404, () => 'Requested topic does not exist'],
  TOPIC_DELETE_MISSING: [404, () => 'Topic to delete does not exist.'],
  TOPIC_INVALID: [
    400,
    (details: string) => `Unable to create Kafka topic, error(s) in validating schema -- [${details}]`,
  ],
  TOPIC_WRITE_MISSING: [404, () => 'Kafka topic does not exist, can not write a message.'],
  TOPIC_REFUSED: [400, (name: string, reason: string) => `Unable to create Kafka topic ${name}: ${reason}`],
  TOPIC_CHANGE_REFUSED: [400, (name: string, reason: string) => `Unable to change Kafka topic ${name}: ${reason}`],
  PURGE_CONFIRM: [
    400,
    (name: string) =>
      `body.confirm must be the topic's name (${name}) to delete its records; records deleted cannot be restored.`,
  ],
  GROUP_MISSING: [404, () => 'Requested consumer group does not exist'],
  GROUP_REFUSED: [400, (reason: string) => reason],
  SIGMA_MAPPING_MISSING: [
    404,
    (name: string, builtIn: string) => `No built-in Sigma mapping '${name}'; built in: ${builtIn}.`,
  ],
  MESSAGE_INVALID: [
    400,
    (details: string) => `Unable to produce the messages, error(s) in serializing -- [${details}]`,
  ],
  CONSUMER_LIMIT: [
    400,
    (max: number) =>
      `Unable to create a consumer: you already have ${max} running consumer sessions (setting weir.topics.consume.max-sessions-per-user); wait until one completes or expires.`,
  ],
  TAIL_LIMIT: [
    400,
    (max: number) =>
      `Unable to open a live tail: you already have ${max} open (setting weir.topics.tail.max-per-user); close one first.`,
  ],
  CONSUMER_MISSING: [
    404,
    (topic: string) =>
      `No consumer session of yours for topic ${topic}; create one with POST /api/topics/${topic}/consume (sessions expire when not read for a while).`,
  ],
  RESOURCE_EXISTS: [
    409,
    (k: KindNames) => `${cap(k.one)} already exists, can not create a new one. Please use update (PUT) endpoint.`,
  ],
  RESOURCE_MISSING: [404, (k: KindNames) => `Requested ${k.one} does not exist`],
  RESOURCE_UPDATE_MISSING: [
    404,
    (k: KindNames) => `${cap(k.one)} to update does not exist. Please use create (POST) endpoint.`,
  ],
  RESOURCE_DELETE_MISSING: [404, (k: KindNames) => `${cap(k.one)} to delete does not exist.`],
  BULK_INVALID: [400, (k: KindNames) => `Unable to bulk update ${k.many} due to invalid input.`],
  RESOURCE_INVALID: [400, (k: KindNames, details: string) => `Invalid ${k.one}: ${details}`],
  RESOURCE_ID_INVALID: [
    400,
    (k: KindNames, id: string, accepted: string) => `'${id}' is not a valid ${k.one} id; accepted: ${accepted}.`,
  ],
  RESOURCE_ID_MISMATCH: [
    400,
    (k: KindNames, pathId: string, bodyId: string) =>
      `The id in the path (${pathId}) differs from the id in the body (${bodyId}); the id of a ${k.one} cannot be changed. Leave the id out of the body or make them equal.`,
  ],
  VERSION_INVALID: [
    400,
    (param: string, raw: string) =>
      `The path parameter ${param} ('${raw}') is not a version number; versions are whole numbers from 1.`,
  ],
  VERSION_MISSING: [
    404,
    (k: KindNames, id: string, version: number, count: number) =>
      count === 0
        ? `${cap(k.one)} '${id}' has no versions: no ${k.one} with this id was changed since versions are kept.`
        : `${cap(k.one)} '${id}' has no version ${version}; it has versions 1 to ${count}.`,
  ],
  VERSION_IS_DELETION: [
    400,
    (k: KindNames, id: string, version: number) =>
      `Version ${version} of ${k.one} '${id}' records its deletion and holds no ${k.one}; roll back to a version that holds one, or delete the ${k.one}.`,
  ],
  CHANGE_NOTE_INVALID: [400, (detail: string) => `The header X-Weir-Change-Note ${detail}.`],
  LOOKUP_NOT_MULTIPART: [
    400,
    () =>
      "Send the lookup as multipart/form-data with a text part 'id' (on create) and a file part 'file' holding CSV or a JSON array of objects.",
  ],
  LOOKUP_PART_MISSING: [
    400,
    (part: string) =>
      `The multipart part '${part}' is missing; send a text part 'id' (on create) and a file part 'file' holding CSV or a JSON array of objects.`,
  ],
  LOOKUP_INVALID: [400, (file: string, reason: string) => `The file '${file}' is not a lookup table: ${reason}`],
  LOOKUP_TOO_LARGE: [
    413,
    (limit: number) => `The lookup file is larger than the limit of ${limit} bytes (setting weir.lookup.max-bytes).`,
  ],
  PIPELINE_TEST_MISSING: [404, () => 'Requested pipeline does not exist'],
  TEST_INPUT_INVALID: [400, (detail: string) => detail],
  PDL_INVALID: [400, (message: string) => `The PDL does not compile: ${message}`],
  TASK_FAILED: [400, (task: string, message: string) => `Task ${task} failed on this input: ${message}`],
  VALIDATION: [400, (details: string) => details],
  MALFORMED_JSON: [400, (detail: string) => `The request body is not valid JSON: ${detail}`],
  BODY_TOO_DEEP: [
    400,
    (limit: number) =>
      `The request body nests arrays and objects more than ${limit} levels deep; at most ${limit} are accepted.`,
  ],
  BODY_TOO_LARGE: [
    413,
    (limit: number) => `The request body is larger than the limit of ${limit} bytes (setting weir.http.body-limit).`,
  ],
  MEDIA_TYPE: [415, (type: string) => `Unsupported Content-Type '${type}'; send application/json.`],
  URL_INVALID: [
    400,
    (path: string) => `The request path '${path}' is not a valid URL: every % must start a %XX escape of UTF-8 bytes.`,
  ],
  PATH_PARAM_TOO_LONG: [
    414,
    (max: number) => `A path parameter is longer than ${max} characters (percent-encoded); no id is that long.`,
  ],
  HEADERS_TOO_LARGE: [
    431,
    (max: number) => `The request line and headers are larger than ${max} bytes; send long values in the body.`,
  ],
  REQUEST_TIMEOUT: [
    408,
    (headers: number, request: number) =>
      `The request did not arrive in time: headers within ${headers} s, the whole request within ${request} s (settings weir.http.headers-timeout-seconds, weir.http.request-timeout-seconds).`,
  ],
  HTTP_INVALID: [400, (code: string) => `The request is not valid HTTP/1.1 (${code}); the connection is closed.`],
  ROUTE_MISSING: [404, (method: string, url: string) => `No API route ${method} ${url}`],
  API_RATE_LIMITED: [
    429,
    (max: number, seconds: number, from: 'this login session' | 'this address') =>
      `More than ${max} API requests in a minute from ${from} (setting weir.http.rate-limit-per-minute); try again in ${seconds} s.`,
  ],
  RECORD_LIMIT: [
    400,
    (k: KindNames, max: number, setting: string) =>
      `Unable to store more than ${max} ${k.many} (setting ${setting}); delete some first.`,
  ],
  LOOKUP_TOTAL_TOO_LARGE: [
    413,
    (limit: number, others: number, size: number) =>
      `The lookups would take ${others + size} bytes in all, more than the limit of ${limit} bytes (setting weir.lookup.max-total-bytes); this one takes ${size} bytes, the others ${others}.`,
  ],
  LOGIN_RATE_LIMITED: [
    429,
    (seconds: number) => `Too many failed logins for this user from this address; try again in ${seconds} s.`,
  ],
  BACKTEST_INVALID: [400, (detail: string) => `The backtest request is not valid: ${detail}`],
  BACKTEST_MISSING: [
    404,
    (id: string) => `No backtest ${id}; backtests are kept for an hour after they end, on the node that ran them.`,
  ],
  BACKTEST_LIMIT: [
    429,
    (max: number) =>
      `You already have ${max} backtests queued or running (setting weir.backtest.max-per-user); wait for one to end or cancel one (DELETE /api/backtests/{id}).`,
  ],
  INTERNAL: [500, (id: string) => `An internal error occurred; see the node's log for request ${id}.`],
  UNAVAILABLE: [503, (what: string) => what],
} as const satisfies Record<string, readonly [ErrorHttpStatus, (...args: never[]) => string]>;

export type ErrorCode = keyof typeof errorCatalog;
export interface ErrorBody {
  readonly status: string;
  readonly message: string;
  readonly debugMessage: string;
  /**
   * The violations, when the request was refused for its content: each field's (`definition.field:
   * is required`, starting with its path), or per element of a bulk request; absent otherwise.
   */
  readonly errors?: readonly ErrorDetail[];
}

/** One refused element of a bulk request: its index (-1: the body itself), its id, its violations. */
export interface ElementViolations {
  readonly index: number;
  readonly id?: unknown;
  readonly errors: readonly string[];
}

/** An entry of `errors`: a field's violation, or a refused bulk element's. */
export type ErrorDetail = string | ElementViolations;
