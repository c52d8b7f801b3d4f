import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { multipartBody, type FormPart } from '@weir/test-helpers/multipart';
import { badRequest, notFound } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode();
const csv = 'user,department,level\nalice,"Research, Lab",3\nbob,,"7"\n';
const csvRows = [
  { user: 'alice', department: 'Research, Lab', level: 3 },
  { user: 'bob', department: '', level: '7' },
];
const jsonRows = [{ ip: '10.0.0.1', risk: 9 }];
const sendParts = "send a text part 'id' (on create) and a file part 'file' holding CSV or a JSON array of objects";

const file = (value: string, filename = 'table.csv', contentType = 'text/csv'): FormPart => ({
  name: 'file',
  value,
  filename,
  contentType,
});
function upload(url: string, parts: FormPart[], token = t.tokens.admin) {
  const { body, contentType } = multipartBody(parts);
  return t.node.call('POST', url, { token, body, contentType });
}

test('lookup routes: reads open to users, writes admin only; no token is refused', async () => {
  const { body } = multipartBody([{ name: 'id', value: 'x' }, file(csv)]);
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/lookups', { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/lookups/x', { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'POST', '/api/lookups', { adminOnly: true, body: body.toString() });
  await assertRefusals(t.node, t.tokens.user, 'POST', '/api/lookups/x', { adminOnly: true, body: body.toString() });
  await assertRefusals(t.node, t.tokens.user, 'DELETE', '/api/lookups/x', { adminOnly: true });
});

test('create from CSV and JSON, read all and one, 409 on an existing id, update, delete', async () => {
  const created = await upload('/api/lookups', [{ name: 'id', value: 'users' }, file(csv)]);
  assert.deepEqual([created.status, created.headers.location, created.body], [201, '/api/lookups', { id: 'users' }]);
  const fromJson = await upload('/api/lookups', [
    file(JSON.stringify(jsonRows), 'ips.json', 'application/json'),
    { name: 'id', value: 'ips' },
  ]);
  assert.deepEqual([fromJson.status, fromJson.body], [201, { id: 'ips' }]);

  const one = await t.node.call('GET', '/api/lookups/users', { token: t.tokens.user });
  assert.deepEqual([one.status, one.body], [200, { id: 'users', content: csvRows }]);
  const all = await t.node.call('GET', '/api/lookups', { token: t.tokens.user });
  assert.deepEqual(
    [all.status, all.body],
    [
      200,
      [
        { id: 'users', content: csvRows },
        { id: 'ips', content: jsonRows },
      ],
    ],
  );

  const again = await upload('/api/lookups', [{ name: 'id', value: 'users' }, file(csv)]);
  assert.deepEqual(
    [again.status, again.body],
    [
      409,
      {
        status: 'CONFLICT',
        message: 'Resource already exists',
        debugMessage: 'Lookup already exists, can not create a new one. Please use update (PUT) endpoint.',
      },
    ],
  );

  const updated = await upload('/api/lookups/ips', [file('ip,risk\n10.0.0.9,1\n')]);
  assert.deepEqual([updated.status, updated.body], [200, { id: 'ips' }]);
  const read = await t.node.call('GET', '/api/lookups/ips', { token: t.tokens.admin });
  assert.deepEqual(read.body, { id: 'ips', content: [{ ip: '10.0.0.9', risk: 1 }] });

  const deleted = await t.node.call('DELETE', '/api/lookups/ips', { token: t.tokens.admin });
  assert.deepEqual([deleted.status, deleted.text], [204, '']);
  const deleteAgain = await t.node.call('DELETE', '/api/lookups/ips', { token: t.tokens.admin });
  assert.deepEqual([deleteAgain.status, deleteAgain.body], [404, notFound('Lookup to delete does not exist.')]);
  const missing = await t.node.call('GET', '/api/lookups/ips', { token: t.tokens.admin });
  assert.deepEqual([missing.status, missing.body], [404, notFound('Requested lookup does not exist')]);
});

test('missing parts, empty files and non-multipart bodies: 400 saying what to send', async () => {
  const noId = await upload('/api/lookups', [file(csv)]);
  assert.deepEqual([noId.status, noId.body], [400, badRequest(`The multipart part 'id' is missing; ${sendParts}.`)]);
  const noFile = await upload('/api/lookups', [{ name: 'id', value: 'x' }]);
  assert.deepEqual(
    [noFile.status, noFile.body],
    [400, badRequest(`The multipart part 'file' is missing; ${sendParts}.`)],
  );
  const neither = await upload('/api/lookups', [{ name: 'note', value: 'x' }]);
  assert.deepEqual(
    [neither.status, neither.body],
    [400, badRequest(`The multipart part 'id' is missing; ${sendParts}.`)],
  );
  await upload('/api/lookups', [{ name: 'id', value: 'kept' }, file(csv)]);
  const noFileOnUpdate = await upload('/api/lookups/kept', [{ name: 'id', value: 'kept' }]);
  assert.deepEqual(
    [noFileOnUpdate.status, noFileOnUpdate.body],
    [400, badRequest(`The multipart part 'file' is missing; ${sendParts}.`)],
  );
  const empty = await upload('/api/lookups', [{ name: 'id', value: 'empty' }, file('', 'empty.csv')]);
  assert.deepEqual(
    [empty.status, empty.body],
    [
      400,
      badRequest(
        "The file 'empty.csv' is not a lookup table: the file is empty; send CSV (first line: field names) or a JSON array of objects",
      ),
    ],
  );
  const json = await t.node.call('POST', '/api/lookups', { token: t.tokens.admin, body: { id: 'x', content: [] } });
  assert.deepEqual(
    [json.status, json.body],
    [
      400,
      badRequest(
        "Send the lookup as multipart/form-data with a text part 'id' (on create) and a file part 'file' holding CSV or a JSON array of objects.",
      ),
    ],
  );
});
