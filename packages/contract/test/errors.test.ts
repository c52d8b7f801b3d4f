import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorCatalog, errorStatus } from '../src/errors.ts';

const kinds = {
  task: { one: 'task', many: 'tasks' },
  pipeline: { one: 'pipeline', many: 'pipelines' },
  topology: { one: 'topology', many: 'topologies' },
  rule: { one: 'rule', many: 'rules' },
  lookup: { one: 'lookup', many: 'lookups' },
};

test("the status texts: the spec's three fixed messages, and one for every other status the API answers", () => {
  assert.deepEqual(errorStatus, {
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
  });
});

test("every error code's HTTP status", () => {
  const statuses = Object.fromEntries(Object.entries(errorCatalog).map(([code, [status]]) => [code, status]));
  assert.deepEqual(statuses, {
    ALREADY_INITIALIZED: 409,
    USER_EXISTS: 409,
    USER_MISSING: 404,
    SELF_DELETE: 400,
    SIGMA_MAPPING_MISSING: 404,
    LAST_ADMIN: 400,
    ROLE_CHANGE_FORBIDDEN: 400,
    PASSWORD_POLICY: 400,
    USERNAME_MISMATCH: 400,
    ENGINE_NOT_STOPPED: 400,
    NODE_MISSING: 404,
    ALERT_MISSING: 404,
    NODE_MISMATCH: 400,
    NODE_NOT_STOPPED: 400,
    TOPIC_MISSING: 404,
    TOPIC_DELETE_MISSING: 404,
    TOPIC_INVALID: 400,
    TOPIC_WRITE_MISSING: 404,
    TOPIC_REFUSED: 400,
    TOPIC_CHANGE_REFUSED: 400,
    PURGE_CONFIRM: 400,
    GROUP_MISSING: 404,
    GROUP_REFUSED: 400,
    MESSAGE_INVALID: 400,
    CONSUMER_LIMIT: 400,
    TAIL_LIMIT: 400,
    CONSUMER_MISSING: 404,
    RESOURCE_EXISTS: 409,
    RESOURCE_MISSING: 404,
    RESOURCE_UPDATE_MISSING: 404,
    RESOURCE_DELETE_MISSING: 404,
    BULK_INVALID: 400,
    VERSION_INVALID: 400,
    VERSION_MISSING: 404,
    VERSION_IS_DELETION: 400,
    CHANGE_NOTE_INVALID: 400,
    RESOURCE_INVALID: 400,
    RESOURCE_ID_INVALID: 400,
    RESOURCE_ID_MISMATCH: 400,
    LOOKUP_NOT_MULTIPART: 400,
    LOOKUP_PART_MISSING: 400,
    LOOKUP_INVALID: 400,
    LOOKUP_TOO_LARGE: 413,
    PIPELINE_TEST_MISSING: 404,
    TEST_INPUT_INVALID: 400,
    PDL_INVALID: 400,
    TASK_FAILED: 400,
    VALIDATION: 400,
    MALFORMED_JSON: 400,
    BODY_TOO_DEEP: 400,
    BODY_TOO_LARGE: 413,
    MEDIA_TYPE: 415,
    URL_INVALID: 400,
    PATH_PARAM_TOO_LONG: 414,
    HEADERS_TOO_LARGE: 431,
    REQUEST_TIMEOUT: 408,
    HTTP_INVALID: 400,
    ROUTE_MISSING: 404,
    API_RATE_LIMITED: 429,
    RECORD_LIMIT: 400,
    LOOKUP_TOTAL_TOO_LARGE: 413,
    LOGIN_RATE_LIMITED: 429,
    BACKTEST_INVALID: 400,
    BACKTEST_MISSING: 404,
    BACKTEST_LIMIT: 429,
    INTERNAL: 500,
    UNAVAILABLE: 503,
  });
  for (const [code, [status]] of Object.entries(errorCatalog)) assert.ok(status in errorStatus, code);
});

test("the debugMessages of the spec's Errors table, word for word", () => {
  const c = errorCatalog;
  assert.equal(c.ALREADY_INITIALIZED[1](), 'API and users are already initialized.');
  assert.equal(c.USER_EXISTS[1](), 'User already exists, can not create a new one. Please use update (PUT) endpoint.');
  assert.equal(c.USER_MISSING[1](), 'Provided username does not exist');
  assert.equal(c.SELF_DELETE[1](), 'Authenticated user is not allowed to delete herself');
  assert.equal(
    c.ENGINE_NOT_STOPPED[1]('RUNNING'),
    'Unable to start engine, please stop it properly. Current state is RUNNING',
  );
  assert.equal(c.NODE_MISSING[1](), 'Requested node does not exist');
  assert.equal(
    c.NODE_MISMATCH[1](),
    'Unable to remove node. In order to remove properly the node must match the provided UUID',
  );
  assert.equal(
    c.NODE_NOT_STOPPED[1](),
    'Unable to remove node. In order to remove properly the node state must be NOT_RUNNING',
  );
  assert.equal(c.TOPIC_MISSING[1](), 'Requested topic does not exist');
  assert.equal(c.TOPIC_DELETE_MISSING[1](), 'Topic to delete does not exist.');
  assert.equal(
    c.TOPIC_INVALID[1]('$.numberOfPartitions: must be an integer >= 1'),
    'Unable to create Kafka topic, error(s) in validating schema -- [$.numberOfPartitions: must be an integer >= 1]',
  );
  assert.equal(c.TOPIC_WRITE_MISSING[1](), 'Kafka topic does not exist, can not write a message.');
  assert.equal(c.PIPELINE_TEST_MISSING[1](), 'Requested pipeline does not exist');
});

test('the per-kind debugMessages name each of the five kinds as the spec does', () => {
  const c = errorCatalog;
  const expected = {
    task: ['Task', 'task', 'tasks'],
    pipeline: ['Pipeline', 'pipeline', 'pipelines'],
    topology: ['Topology', 'topology', 'topologies'],
    rule: ['Rule', 'rule', 'rules'],
    lookup: ['Lookup', 'lookup', 'lookups'],
  };
  for (const [name, [Kind, kind, kinds_]] of Object.entries(expected)) {
    const k = kinds[name as keyof typeof kinds];
    assert.equal(
      c.RESOURCE_EXISTS[1](k),
      `${Kind} already exists, can not create a new one. Please use update (PUT) endpoint.`,
    );
    assert.equal(c.RESOURCE_MISSING[1](k), `Requested ${kind} does not exist`);
    assert.equal(
      c.RESOURCE_UPDATE_MISSING[1](k),
      `${Kind} to update does not exist. Please use create (POST) endpoint.`,
    );
    assert.equal(c.RESOURCE_DELETE_MISSING[1](k), `${Kind} to delete does not exist.`);
    assert.equal(c.BULK_INVALID[1](k), `Unable to bulk update ${kinds_} due to invalid input.`);
  }
});

test("Weir's own debugMessages say what was wrong and what to do", () => {
  const c = errorCatalog;
  assert.equal(
    c.RESOURCE_ID_INVALID[1](kinds.task, 'x', 'an integer from 0 to 9007199254740991'),
    "'x' is not a valid task id; accepted: an integer from 0 to 9007199254740991.",
  );
  assert.equal(
    c.RESOURCE_ID_MISMATCH[1](kinds.rule, 'a', 'b'),
    'The id in the path (a) differs from the id in the body (b); the id of a rule cannot be changed. Leave the id out of the body or make them equal.',
  );
  assert.equal(
    c.RESOURCE_INVALID[1](kinds.pipeline, 'tasks[1]: must be integer'),
    'Invalid pipeline: tasks[1]: must be integer',
  );
  assert.equal(
    c.RECORD_LIMIT[1](kinds.rule, 10000, 'weir.rules.max-count'),
    'Unable to store more than 10000 rules (setting weir.rules.max-count); delete some first.',
  );
  assert.equal(
    c.LAST_ADMIN[1]('delete admin'),
    'Unable to delete admin: it is the last user with the admin role, and Weir must keep at least one admin.',
  );
  assert.equal(
    c.BODY_TOO_LARGE[1](1048576),
    'The request body is larger than the limit of 1048576 bytes (setting weir.http.body-limit).',
  );
  assert.equal(c.MEDIA_TYPE[1]('text/xml'), "Unsupported Content-Type 'text/xml'; send application/json.");
  assert.equal(c.ROUTE_MISSING[1]('GET', '/api/nope'), 'No API route GET /api/nope');
  assert.equal(
    c.API_RATE_LIMITED[1](600, 12, 'this address'),
    'More than 600 API requests in a minute from this address (setting weir.http.rate-limit-per-minute); try again in 12 s.',
  );
  assert.equal(
    c.LOOKUP_TOTAL_TOO_LARGE[1](100, 70, 40),
    'The lookups would take 110 bytes in all, more than the limit of 100 bytes (setting weir.lookup.max-total-bytes); this one takes 40 bytes, the others 70.',
  );
  assert.equal(c.INTERNAL[1]('req-7'), "An internal error occurred; see the node's log for request req-7.");
  assert.equal(c.VALIDATION[1]('body.x: is required'), 'body.x: is required');
});
