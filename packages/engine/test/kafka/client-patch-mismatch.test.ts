import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClientPatchApp, clientPatch, postinstallPatchArgs } from '../helpers/client-patch-app.ts';

// A client the patch was not made for fails the install (postinstall's patch-package exits non-zero,
// so `npm ci` and `npm install` fail) instead of leaving the client unpatched or patched blindly.
// patch-package alone only warns and exits 0 outside CI: postinstall's flags are what make it fail.

/** A copy of the installed client with the patch taken out: the client as published. */
function publishedClient(t: { after(fn: () => void): void }): ClientPatchApp {
  const app = new ClientPatchApp();
  t.after(() => app.remove());
  app.unpatch();
  return app;
}

/** The published records.js with the lines the patch changes rewritten, as a new client version could. */
function changeRecordsJs(app: ClientPatchApp): string {
  const published = app.read('dist/protocol/records.js');
  const changed = published.replace(
    'buffer.appendFrom(record.dynamicBuffer);',
    'buffer.appendFrom(record.dynamicBuffer); // changed upstream',
  );
  assert.notEqual(changed, published, 'the published records.js has the line this test changes');
  app.write('dist/protocol/records.js', changed);
  return changed;
}

test('another client version fails the install even when the patch still applies', (t) => {
  const app = publishedClient(t);
  app.setVersion('2.99.0');
  const run = app.patchPackage(postinstallPatchArgs());
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /patch-package detected a patch file version mismatch/);
  assert.match(
    run.output,
    new RegExp(
      `@platformatic/kafka@${clientPatch().version.replaceAll('.', '\\.')}\\s+applied to\\s+@platformatic/kafka@2\\.99\\.0`,
    ),
  );
});

test('another client version whose code the patch no longer fits fails the install and leaves the client untouched', (t) => {
  const app = publishedClient(t);
  app.setVersion('2.99.0');
  const records = changeRecordsJs(app);
  const run = app.patchPackage(postinstallPatchArgs());
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /\*\*ERROR\*\* Failed to apply patch for package @platformatic\/kafka/);
  assert.match(run.output, /Installed version: 2\.99\.0/);
  // no half-patched client: patch-package tries every change before making any
  assert.equal(app.read('dist/protocol/records.js'), records);
  assert.ok(!app.has('dist/protocol/weir-record-encoder.js'));
});

test('the pinned version with changed code (a corrupt install or a wrong patch) fails the install', (t) => {
  const app = publishedClient(t);
  changeRecordsJs(app);
  const run = app.patchPackage(postinstallPatchArgs());
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /cannot apply the following patch file:\s+patches\/@platformatic\+kafka\+/);
});
