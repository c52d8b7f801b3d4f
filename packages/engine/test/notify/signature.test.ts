import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { signature, signatureValid } from '../../src/notify/signature.ts';

test('sha256= and the hex HMAC-SHA256 of the exact body with the secret', () => {
  // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?"
  assert.equal(
    signature('Jefe', 'what do ya want for nothing?'),
    'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  );
  const body = Buffer.from('{"notifier":"n","alert":{"x":"é"}}');
  assert.equal(signature('s3cret', body), `sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`);
});

test('a signature is valid for its body and secret only', () => {
  const header = signature('s3cret', 'body');
  assert.equal(signatureValid('s3cret', 'body', header), true);
  assert.equal(signatureValid('s3cret', 'body ', header), false);
  assert.equal(signatureValid('other', 'body', header), false);
  assert.equal(signatureValid('s3cret', 'body', header.slice(0, -1)), false);
  assert.equal(signatureValid('s3cret', 'body', undefined), false);
});
