import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SettingsError } from '../../src/config/settings.ts';
import { readErrorBody, WeirApiError, type ErrorBody as SdkErrorBody } from '@weir/client';
import { errorCatalog, errorStatus } from '@weir/contract';
import {
  apiError,
  internalErrorCodes,
  isApiError,
  isWeirError,
  WeirError,
  withDetails,
  type ApiError,
} from '../../src/core/errors.ts';
import { SerdeError } from '../../src/kafka/serde-codecs.ts';
import { LookupFormatError } from '../../src/resources/lookup-table.ts';
import { DefinitionViolation, TaskDefinitionError } from '../../src/tasks/task-definition-error.ts';

test('the spec texts come out of the registry exactly', () => {
  const kind = { one: 'pipeline', many: 'pipelines' };
  assert.deepEqual(apiError('RESOURCE_EXISTS', kind).body, {
    status: 'CONFLICT',
    message: 'Resource already exists',
    debugMessage: 'Pipeline already exists, can not create a new one. Please use update (PUT) endpoint.',
  });
  assert.equal(apiError('RESOURCE_MISSING', kind).body.debugMessage, 'Requested pipeline does not exist');
  assert.equal(
    apiError('RESOURCE_UPDATE_MISSING', kind).body.debugMessage,
    'Pipeline to update does not exist. Please use create (POST) endpoint.',
  );
  assert.equal(apiError('RESOURCE_DELETE_MISSING', kind).body.debugMessage, 'Pipeline to delete does not exist.');
  assert.equal(
    apiError('BULK_INVALID', kind).body.debugMessage,
    'Unable to bulk update pipelines due to invalid input.',
  );
  assert.equal(
    apiError('ENGINE_NOT_STOPPED', 'RUNNING').body.debugMessage,
    'Unable to start engine, please stop it properly. Current state is RUNNING',
  );
  assert.equal(
    apiError('TOPIC_INVALID', 'x').body.debugMessage,
    'Unable to create Kafka topic, error(s) in validating schema -- [x]',
  );
  assert.equal(apiError('NODE_MISSING').httpStatus, 404);
  assert.ok(isApiError(apiError('USER_MISSING')));
  assert.ok(!isApiError(new Error('x')));
});

test('docs/api.md names every error code', () => {
  const doc = readFileSync(new URL('../../../../docs/api.md', import.meta.url), 'utf8');
  for (const code of Object.keys(errorCatalog))
    assert.ok(doc.includes(`\`${code}\``), `docs/api.md does not name ${code}`);
});

/**
 * The catalog pinned: how many codes there are, and for each its HTTP status, its status text and
 * its debugMessage for sample arguments. A change here is a change of the API: update docs/api.md too.
 */
const kind = { one: 'pipeline', many: 'pipelines' };
const pinned: Record<string, readonly [readonly unknown[], number, string, string]> = {
  ALREADY_INITIALIZED: [[], 409, 'CONFLICT', 'API and users are already initialized.'],
  USER_EXISTS: [
    [],
    409,
    'CONFLICT',
    'User already exists, can not create a new one. Please use update (PUT) endpoint.',
  ],
  USER_MISSING: [[], 404, 'NOT_FOUND', 'Provided username does not exist'],
  SELF_DELETE: [[], 400, 'BAD_REQUEST', 'Authenticated user is not allowed to delete herself'],
  LAST_ADMIN: [
    ['<action>'],
    400,
    'BAD_REQUEST',
    'Unable to <action>: it is the last user with the admin role, and Weir must keep at least one admin.',
  ],
  ROLE_CHANGE_FORBIDDEN: [
    [],
    400,
    'BAD_REQUEST',
    'Only an admin may change roles; leave roles out or unchanged when updating your own user.',
  ],
  USERNAME_MISMATCH: [
    ['<path>', '<body>'],
    400,
    'BAD_REQUEST',
    'The username in the path (<path>) differs from the username in the body (<body>); a username cannot be changed.',
  ],
  ENGINE_NOT_STOPPED: [
    ['<state>'],
    400,
    'BAD_REQUEST',
    'Unable to start engine, please stop it properly. Current state is <state>',
  ],
  ALERT_MISSING: [
    ['0123456789abcdef0123456789abcdef'],
    404,
    'NOT_FOUND',
    'Requested alert does not exist: 0123456789abcdef0123456789abcdef',
  ],
  NODE_MISSING: [[], 404, 'NOT_FOUND', 'Requested node does not exist'],
  NODE_MISMATCH: [
    [],
    400,
    'BAD_REQUEST',
    'Unable to remove node. In order to remove properly the node must match the provided UUID',
  ],
  NODE_NOT_STOPPED: [
    [],
    400,
    'BAD_REQUEST',
    'Unable to remove node. In order to remove properly the node state must be NOT_RUNNING',
  ],
  TOPIC_MISSING: [[], 404, 'NOT_FOUND', 'Requested topic does not exist'],
  TOPIC_DELETE_MISSING: [[], 404, 'NOT_FOUND', 'Topic to delete does not exist.'],
  TOPIC_INVALID: [
    ['<details>'],
    400,
    'BAD_REQUEST',
    'Unable to create Kafka topic, error(s) in validating schema -- [<details>]',
  ],
  TOPIC_WRITE_MISSING: [[], 404, 'NOT_FOUND', 'Kafka topic does not exist, can not write a message.'],
  TOPIC_REFUSED: [['<name>', '<reason>'], 400, 'BAD_REQUEST', 'Unable to create Kafka topic <name>: <reason>'],
  TOPIC_CHANGE_REFUSED: [['<name>', '<reason>'], 400, 'BAD_REQUEST', 'Unable to change Kafka topic <name>: <reason>'],
  PURGE_CONFIRM: [
    ['t1'],
    400,
    'BAD_REQUEST',
    "body.confirm must be the topic's name (t1) to delete its records; records deleted cannot be restored.",
  ],
  GROUP_MISSING: [[], 404, 'NOT_FOUND', 'Requested consumer group does not exist'],
  SIGMA_MAPPING_MISSING: [
    ['x', 'evtx-json, sigma'],
    404,
    'NOT_FOUND',
    "No built-in Sigma mapping 'x'; built in: evtx-json, sigma.",
  ],
  GROUP_REFUSED: [['<reason>'], 400, 'BAD_REQUEST', '<reason>'],
  MESSAGE_INVALID: [
    ['<details>'],
    400,
    'BAD_REQUEST',
    'Unable to produce the messages, error(s) in serializing -- [<details>]',
  ],
  CONSUMER_LIMIT: [
    [7],
    400,
    'BAD_REQUEST',
    'Unable to create a consumer: you already have 7 running consumer sessions (setting weir.topics.consume.max-sessions-per-user); wait until one completes or expires.',
  ],
  TAIL_LIMIT: [
    [4],
    400,
    'BAD_REQUEST',
    'Unable to open a live tail: you already have 4 open (setting weir.topics.tail.max-per-user); close one first.',
  ],
  CONSUMER_MISSING: [
    ['<topic>'],
    404,
    'NOT_FOUND',
    'No consumer session of yours for topic <topic>; create one with POST /api/topics/<topic>/consume (sessions expire when not read for a while).',
  ],
  RESOURCE_EXISTS: [
    [kind],
    409,
    'CONFLICT',
    'Pipeline already exists, can not create a new one. Please use update (PUT) endpoint.',
  ],
  RESOURCE_MISSING: [[kind], 404, 'NOT_FOUND', 'Requested pipeline does not exist'],
  RESOURCE_UPDATE_MISSING: [
    [kind],
    404,
    'NOT_FOUND',
    'Pipeline to update does not exist. Please use create (POST) endpoint.',
  ],
  RESOURCE_DELETE_MISSING: [[kind], 404, 'NOT_FOUND', 'Pipeline to delete does not exist.'],
  BULK_INVALID: [[kind], 400, 'BAD_REQUEST', 'Unable to bulk update pipelines due to invalid input.'],
  RESOURCE_INVALID: [[kind, '<details>'], 400, 'BAD_REQUEST', 'Invalid pipeline: <details>'],
  RESOURCE_ID_INVALID: [
    [kind, '<id>', '<accepted>'],
    400,
    'BAD_REQUEST',
    "'<id>' is not a valid pipeline id; accepted: <accepted>.",
  ],
  RESOURCE_ID_MISMATCH: [
    [kind, '<pathId>', '<bodyId>'],
    400,
    'BAD_REQUEST',
    'The id in the path (<pathId>) differs from the id in the body (<bodyId>); the id of a pipeline cannot be changed. Leave the id out of the body or make them equal.',
  ],
  VERSION_INVALID: [
    ['from', 'two'],
    400,
    'BAD_REQUEST',
    "The path parameter from ('two') is not a version number; versions are whole numbers from 1.",
  ],
  VERSION_MISSING: [[kind, '7', 4, 3], 404, 'NOT_FOUND', "Pipeline '7' has no version 4; it has versions 1 to 3."],
  VERSION_IS_DELETION: [
    [kind, '7', 3],
    400,
    'BAD_REQUEST',
    "Version 3 of pipeline '7' records its deletion and holds no pipeline; roll back to a version that holds one, or delete the pipeline.",
  ],
  CHANGE_NOTE_INVALID: [
    ['is given more than once; send one'],
    400,
    'BAD_REQUEST',
    'The header X-Weir-Change-Note is given more than once; send one.',
  ],
  LOOKUP_NOT_MULTIPART: [
    [],
    400,
    'BAD_REQUEST',
    "Send the lookup as multipart/form-data with a text part 'id' (on create) and a file part 'file' holding CSV or a JSON array of objects.",
  ],
  LOOKUP_PART_MISSING: [
    ['<part>'],
    400,
    'BAD_REQUEST',
    "The multipart part '<part>' is missing; send a text part 'id' (on create) and a file part 'file' holding CSV or a JSON array of objects.",
  ],
  LOOKUP_INVALID: [['<file>', '<reason>'], 400, 'BAD_REQUEST', "The file '<file>' is not a lookup table: <reason>"],
  LOOKUP_TOO_LARGE: [
    [7],
    413,
    'PAYLOAD_TOO_LARGE',
    'The lookup file is larger than the limit of 7 bytes (setting weir.lookup.max-bytes).',
  ],
  PIPELINE_TEST_MISSING: [[], 404, 'NOT_FOUND', 'Requested pipeline does not exist'],
  TEST_INPUT_INVALID: [['<detail>'], 400, 'BAD_REQUEST', '<detail>'],
  PDL_INVALID: [['<message>'], 400, 'BAD_REQUEST', 'The PDL does not compile: <message>'],
  TASK_FAILED: [['<task>', '<message>'], 400, 'BAD_REQUEST', 'Task <task> failed on this input: <message>'],
  VALIDATION: [['<details>'], 400, 'BAD_REQUEST', '<details>'],
  MALFORMED_JSON: [['<detail>'], 400, 'BAD_REQUEST', 'The request body is not valid JSON: <detail>'],
  BODY_TOO_LARGE: [
    [7],
    413,
    'PAYLOAD_TOO_LARGE',
    'The request body is larger than the limit of 7 bytes (setting weir.http.body-limit).',
  ],
  MEDIA_TYPE: [['<type>'], 415, 'UNSUPPORTED_MEDIA_TYPE', "Unsupported Content-Type '<type>'; send application/json."],
  URL_INVALID: [
    ['/api/rules/%zz'],
    400,
    'BAD_REQUEST',
    "The request path '/api/rules/%zz' is not a valid URL: every % must start a %XX escape of UTF-8 bytes.",
  ],
  PATH_PARAM_TOO_LONG: [
    [7],
    414,
    'URI_TOO_LONG',
    'A path parameter is longer than 7 characters (percent-encoded); no id is that long.',
  ],
  HEADERS_TOO_LARGE: [
    [7],
    431,
    'REQUEST_HEADER_FIELDS_TOO_LARGE',
    'The request line and headers are larger than 7 bytes; send long values in the body.',
  ],
  REQUEST_TIMEOUT: [
    [2, 3],
    408,
    'REQUEST_TIMEOUT',
    'The request did not arrive in time: headers within 2 s, the whole request within 3 s (settings weir.http.headers-timeout-seconds, weir.http.request-timeout-seconds).',
  ],
  HTTP_INVALID: [['HPE_X'], 400, 'BAD_REQUEST', 'The request is not valid HTTP/1.1 (HPE_X); the connection is closed.'],
  ROUTE_MISSING: [['<method>', '<url>'], 404, 'NOT_FOUND', 'No API route <method> <url>'],
  LOGIN_RATE_LIMITED: [
    [7],
    429,
    'TOO_MANY_REQUESTS',
    'Too many failed logins for this user from this address; try again in 7 s.',
  ],
  BACKTEST_INVALID: [
    ['to: 2019-01-01T00:00:00Z is before from'],
    400,
    'BAD_REQUEST',
    'The backtest request is not valid: to: 2019-01-01T00:00:00Z is before from',
  ],
  BACKTEST_MISSING: [
    ['b-1'],
    404,
    'NOT_FOUND',
    'No backtest b-1; backtests are kept for an hour after they end, on the node that ran them.',
  ],
  BACKTEST_LIMIT: [
    [2],
    429,
    'TOO_MANY_REQUESTS',
    'You already have 2 backtests queued or running (setting weir.backtest.max-per-user); wait for one to end or cancel one (DELETE /api/backtests/{id}).',
  ],
  INTERNAL: [
    ['<id>'],
    500,
    'INTERNAL_SERVER_ERROR',
    "An internal error occurred; see the node's log for request <id>.",
  ],
  UNAVAILABLE: [['<what>'], 503, 'SERVICE_UNAVAILABLE', '<what>'],
  PASSWORD_POLICY: [['<rule>'], 400, 'BAD_REQUEST', 'The password does not meet the password policy: <rule>.'],
  BODY_TOO_DEEP: [
    [7],
    400,
    'BAD_REQUEST',
    'The request body nests arrays and objects more than 7 levels deep; at most 7 are accepted.',
  ],
  API_RATE_LIMITED: [
    [7, 3, 'this login session'],
    429,
    'TOO_MANY_REQUESTS',
    'More than 7 API requests in a minute from this login session (setting weir.http.rate-limit-per-minute); try again in 3 s.',
  ],
  RECORD_LIMIT: [
    [kind, 7, '<setting>'],
    400,
    'BAD_REQUEST',
    'Unable to store more than 7 pipelines (setting <setting>); delete some first.',
  ],
  LOOKUP_TOTAL_TOO_LARGE: [
    [10, 4, 9],
    413,
    'PAYLOAD_TOO_LARGE',
    'The lookups would take 13 bytes in all, more than the limit of 10 bytes (setting weir.lookup.max-total-bytes); this one takes 9 bytes, the others 4.',
  ],
};

test("the API error catalog: count, and every code's status and text", () => {
  assert.equal(Object.keys(errorCatalog).length, 67);
  assert.deepEqual(Object.keys(errorCatalog).sort(), Object.keys(pinned).sort());
  for (const [code, [args, httpStatus, status, debugMessage]] of Object.entries(pinned)) {
    const error = (apiError as (c: string, ...a: unknown[]) => ApiError)(code, ...args);
    assert.deepEqual(
      [error.httpStatus, error.body.status, error.body.debugMessage],
      [httpStatus, status, debugMessage],
      code,
    );
    assert.equal(error.body.message, errorStatus[error.httpStatus].message);
    assert.ok(isWeirError(error) && error.code === code);
  }
});

test('the SDK reads every error of the catalog as the server sends it: status, texts and the violations in `errors`', () => {
  for (const [code, [args]] of Object.entries(pinned)) {
    const error = (apiError as (c: string, ...a: unknown[]) => ApiError)(code, ...args);
    const sent: unknown = JSON.parse(JSON.stringify(error.body));
    const read = new WeirApiError('POST', '/api/x', error.httpStatus, readErrorBody(error.httpStatus, sent));
    const body: SdkErrorBody | undefined = read.body; // the SDK's type is the server's body
    assert.deepEqual(body, error.body, code);
    assert.equal(read.message, `${error.body.message}: ${error.body.debugMessage}`, code);
    assert.deepEqual(read.fieldErrors, [], code);
  }
  const fields = ['definition.field: is required', 'name: must NOT have fewer than 1 characters'];
  const invalid = withDetails(apiError('RESOURCE_INVALID', kind, fields.join('; ')), fields);
  const read = new WeirApiError(
    'POST',
    '/api/tasks',
    400,
    readErrorBody(400, JSON.parse(JSON.stringify(invalid.body))),
  );
  assert.deepEqual(read.body?.errors, fields);
  assert.deepEqual(read.fieldErrors, fields);
  const bulk = withDetails(apiError('BULK_INVALID', kind), [
    { index: -1, errors: ['(body): must be a JSON array of pipelines'] },
    { index: 2, id: 3, errors: ['tasks: is required', 'name: is required'] },
    { index: 4, errors: ['id: is required'] },
  ]);
  assert.deepEqual(new WeirApiError('POST', '/api/bulk/pipelines', 400, readErrorBody(400, bulk.body)).fieldErrors, [
    '(body): must be a JSON array of pipelines',
    '[2] (id 3) tasks: is required',
    '[2] (id 3) name: is required',
    '[4] id: is required',
  ]);
});

test('internal errors share the WeirError base with a code from the closed list', () => {
  const errors = [
    new SettingsError('x'),
    new SerdeError('x'),
    new LookupFormatError('x'),
    new TaskDefinitionError({ id: 1, name: 'n' }, ['v']),
    new DefinitionViolation(['v']),
  ];
  assert.deepEqual(
    errors.map((e) => e.code),
    [...internalErrorCodes],
  );
  for (const error of errors) assert.ok(error instanceof WeirError && isWeirError(error) && !isApiError(error));
  assert.ok(!isWeirError(new Error('x')));
});
