import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadSettings } from '../../src/config/settings.ts';
import { loadKeyStore } from '../../src/http/tls.ts';

/** The self-signed key store made with the JDK's keytool on first start (real keytool, no stand-in). */
for (const password of ['-JO_t3jktPj28p46lYmzfqty', '-storepass', 'plain-password-1', undefined]) {
  test(`first start generates a key store that opens with its password (${password ?? 'a random one'})`, async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'weir-tls-'));
    try {
      const settings = loadSettings(undefined, {}).with({
        'weir.home': home,
        ...(password === undefined ? {} : { 'server.ssl.key-store-password': password }),
      });
      const store = await loadKeyStore(settings);
      if (password !== undefined) assert.equal(store.passphrase, password);
      // opens with its passphrase (throws on a wrong one), and the same store comes back on the next start
      createSecureContext({ pfx: store.pfx, passphrase: store.passphrase });
      assert.equal(statSync(store.file).mode & 0o777, 0o600);
      const again = await loadKeyStore(settings);
      assert.deepEqual(again.pfx, store.pfx);
      assert.equal(again.passphrase, store.passphrase);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
}
