import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { multipartBody, type FormPart } from '@weir/test-helpers/multipart';
import { storeModes, storeSettings } from '../helpers/store-modes.ts';
import { startTestNode, type TestNode, useTestNode } from '@weir/test-helpers/test-node';
import { badRequest, notFound } from '@weir/test-helpers/error-bodies';

const csv = 'user,department,level\nalice,"Research, Lab",3\nbob,"say ""hi""",4.5\ncarol,,"7"\n';
const csvRows = [
  { user: 'alice', department: 'Research, Lab', level: 3 },
  { user: 'bob', department: 'say "hi"', level: 4.5 },
  { user: 'carol', department: '', level: '7' },
];
const jsonRows = [
  { ip: '10.0.0.1', risk: 9 },
  { ip: '10.0.0.2', risk: 1, tags: ['a'] },
];

for (const mode of storeModes) {
  describe(`lookups (${mode} store)`, () => {
    let admin: string;
    let user: string;
    const upload = (path: string, parts: FormPart[], token = admin) => {
      const { body, contentType } = multipartBody(parts);
      return t.call('POST', path, { token, body, contentType });
    };
    const file = (value: string | Buffer, filename = 'table.csv', contentType = 'text/csv'): FormPart => ({
      name: 'file',
      value,
      filename,
      contentType,
    });

    const t = useTestNode({ ...storeSettings(mode), 'weir.lookup.max-bytes': '2048' }, async () => {
      admin = await t.initAdmin();
      user = await t.createUser(admin, 'uma');
    });

    test('create from CSV and JSON, read all and one, 409 on an existing id', async () => {
      const created = await upload('/api/lookups', [{ name: 'id', value: 'users' }, file(csv)]);
      assert.equal(created.status, 201, created.text);
      assert.equal(created.headers.location, '/api/lookups');
      assert.deepEqual(created.body, { id: 'users' });
      const fromJson = await upload('/api/lookups', [
        file(JSON.stringify(jsonRows), 'ips.json', 'application/json'),
        { name: 'id', value: 'ips' },
      ]);
      assert.equal(fromJson.status, 201, fromJson.text);

      assert.deepEqual((await t.call('GET', '/api/lookups/users', { token: user })).body, {
        id: 'users',
        content: csvRows,
      });
      assert.deepEqual((await t.call('GET', '/api/lookups', { token: user })).body, [
        { id: 'users', content: csvRows },
        { id: 'ips', content: jsonRows },
      ]);

      const again = await upload('/api/lookups', [{ name: 'id', value: 'users' }, file(csv)]);
      assert.equal(again.status, 409);
      assert.deepEqual(again.body, {
        status: 'CONFLICT',
        message: 'Resource already exists',
        debugMessage: 'Lookup already exists, can not create a new one. Please use update (PUT) endpoint.',
      });
      assert.equal((await upload('/api/lookups', [{ name: 'id', value: 'x' }, file(csv)], user)).status, 403);
    });

    test('update replaces the content; an invalid or too large file keeps the old content', async () => {
      const replaced = await upload('/api/lookups/ips', [file('ip,risk\n10.0.0.9,5\n', 'new.csv')]);
      assert.equal(replaced.status, 200, replaced.text);
      assert.deepEqual(replaced.body, { id: 'ips' });
      const current = { id: 'ips', content: [{ ip: '10.0.0.9', risk: 5 }] };
      assert.deepEqual((await t.call('GET', '/api/lookups/ips', { token: admin })).body, current);

      const notArray = await upload('/api/lookups/ips', [file('{"ip": "1.2.3.4"}', 'bad.json', 'application/json')]);
      assert.equal(notArray.status, 400);
      assert.deepEqual(
        notArray.body,
        badRequest("The file 'bad.json' is not a lookup table: expected a JSON array of objects, found an object"),
      );
      const badElement = await upload('/api/lookups/ips', [file('[{"a":1}, 2]', 'bad.json', 'application/json')]);
      assert.deepEqual(
        badElement.body,
        badRequest(
          "The file 'bad.json' is not a lookup table: expected a JSON array of objects, but element 1 is a number",
        ),
      );
      const badCsv = await upload('/api/lookups/ips', [file('a,b\n1,2,3\n', 'bad.csv')]);
      assert.equal(badCsv.status, 400);
      assert.match(
        (badCsv.body as { debugMessage: string }).debugMessage,
        /^The file 'bad\.csv' is not a lookup table: it is not valid CSV: .*Invalid Record Length/,
      );
      const tooLarge = await upload('/api/lookups/ips', [file(`a\n${'1\n'.repeat(2000)}`, 'big.csv')]);
      assert.equal(tooLarge.status, 413);
      assert.deepEqual(tooLarge.body, {
        status: 'PAYLOAD_TOO_LARGE',
        message: 'Request body too large',
        debugMessage: 'The lookup file is larger than the limit of 2048 bytes (setting weir.lookup.max-bytes).',
      });
      assert.deepEqual(
        (await t.call('GET', '/api/lookups/ips', { token: admin })).body,
        current,
        'the old content is kept',
      );

      const missing = await upload('/api/lookups/nope', [file(csv)]);
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, notFound('Lookup to update does not exist. Please use create (POST) endpoint.'));
      assert.equal((await upload('/api/lookups/ips', [file(csv)], user)).status, 403);
    });

    test('missing parts, ids and non-multipart bodies are refused with what to send', async () => {
      const noId = await upload('/api/lookups', [file(csv)]);
      assert.deepEqual(
        noId.body,
        badRequest(
          "The multipart part 'id' is missing; send a text part 'id' (on create) and a file part 'file' holding CSV or a JSON array of objects.",
        ),
      );
      const noFile = await upload('/api/lookups', [{ name: 'id', value: 'x' }]);
      assert.deepEqual(
        noFile.body,
        badRequest(
          "The multipart part 'file' is missing; send a text part 'id' (on create) and a file part 'file' holding CSV or a JSON array of objects.",
        ),
      );
      const badId = await upload('/api/lookups', [{ name: 'id', value: 'a b' }, file(csv)]);
      assert.equal(badId.status, 400);
      assert.match((badId.body as { debugMessage: string }).debugMessage, /^'a b' is not a valid lookup id/);
      const empty = await upload('/api/lookups', [{ name: 'id', value: 'empty' }, file('', 'empty.csv')]);
      assert.deepEqual(
        empty.body,
        badRequest(
          "The file 'empty.csv' is not a lookup table: the file is empty; send CSV (first line: field names) or a JSON array of objects",
        ),
      );
      const json = await t.call('POST', '/api/lookups', { token: admin, body: { id: 'x', content: [] } });
      assert.equal(json.status, 400);
      assert.deepEqual(
        json.body,
        badRequest(
          "Send the lookup as multipart/form-data with a text part 'id' (on create) and a file part 'file' holding CSV or a JSON array of objects.",
        ),
      );
      assert.equal((await t.call('GET', '/api/lookups/x', { token: admin })).status, 404);
    });

    test('read and delete of a missing lookup are 404 with the spec texts; delete is 204', async () => {
      const missing = await t.call('GET', '/api/lookups/nope', { token: admin });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, notFound('Requested lookup does not exist'));
      assert.equal((await t.call('DELETE', '/api/lookups/users', { token: user })).status, 403);
      const deleted = await t.call('DELETE', '/api/lookups/users', { token: admin });
      assert.equal(deleted.status, 204);
      const again = await t.call('DELETE', '/api/lookups/users', { token: admin });
      assert.equal(again.status, 404);
      assert.deepEqual(again.body, notFound('Lookup to delete does not exist.'));
    });

    test('a rule may only use lookups that exist, and its PDL must compile (line and column)', async () => {
      const rule = { id: 'uses-ips', name: 'uses ips', pdl: 'a = 1 | lookup ips ip OUTPUT risk' };
      const ok = await t.call('POST', '/api/rules', { token: admin, body: rule });
      assert.equal(ok.status, 201, ok.text);
      const unknown = await t.call('POST', '/api/rules', {
        token: admin,
        body: { ...rule, id: 'uses-nothing', name: 'x', pdl: 'a = 1 | lookup nothing ip OUTPUT risk' },
      });
      assert.equal(unknown.status, 400);
      assert.deepEqual(unknown.body, {
        ...badRequest("Invalid rule: pdl: line 1, column 16: unknown lookup 'nothing'"),
        errors: ["pdl: line 1, column 16: unknown lookup 'nothing'"],
      });
      const broken = await t.call('PUT', '/api/rules/uses-ips', { token: admin, body: { ...rule, pdl: 'a = ' } });
      assert.equal(broken.status, 400);
      assert.deepEqual((broken.body as { errors: string[] }).errors, [
        "pdl: line 1, column 5: expected a value after '=', found end of input",
      ]);
      const bulk = await t.call('POST', '/api/bulk/rules', {
        token: admin,
        body: [rule, { ...rule, id: 'b', name: 'b', pdl: 'a = (' }],
      });
      assert.equal(bulk.status, 400);
      assert.equal((bulk.body as { errors: { index: number }[] }).errors[0]!.index, 1);
      assert.equal((await t.call('DELETE', '/api/rules/uses-ips', { token: admin })).status, 204);
    });

    test('a restart keeps the lookups', async () => {
      await t.restart();
      const token = (await t.login('admin', 'admin-pw')).access_token;
      assert.deepEqual((await t.call('GET', '/api/lookups', { token })).body, [
        { id: 'ips', content: [{ ip: '10.0.0.9', risk: 5 }] },
      ]);
      admin = token;
      user = (await t.login('uma', 'uma-pw')).access_token;
    });
  });
}

describe('lookups larger than a default Kafka record (kafka store)', () => {
  let t: TestNode;
  after(() => t.stop());

  test('a 3 MiB CSV is stored in the lookups topic and read back after a restart', async () => {
    t = await startTestNode(storeSettings('kafka'));
    const admin = await t.initAdmin();
    const lines = ['key,value,n'];
    for (let i = 0; lines.join('\n').length < 3 * 1024 * 1024; i++) {
      for (let j = 0; j < 1000; j++) lines.push(`k${i}-${j},${randomBytes(16).toString('hex')},${j}`);
    }
    const { body, contentType } = multipartBody([
      { name: 'id', value: 'big' },
      { name: 'file', value: lines.join('\n'), filename: 'big.csv', contentType: 'text/csv' },
    ]);
    const res = await t.call('POST', '/api/lookups', { token: admin, body, contentType });
    assert.equal(res.status, 201, res.text);
    await t.restart();
    const token = (await t.login('admin', 'admin-pw')).access_token;
    const read = await t.call('GET', '/api/lookups/big', { token });
    const content = (read.body as { content: { key: string; n: number }[] }).content;
    assert.equal(content.length, lines.length - 1);
    assert.deepEqual(content[1001], { key: 'k1-1', value: lines[1002]!.split(',')[1], n: 1 });
  });
});
