import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

/**
 * Every source file of every package has a mirrored test: `packages/<p>/src/<dir>/<name>.ts(x)` →
 * `packages/<p>/test/<dir>/<name>.test.ts(x)`. The files below had none when this test was written;
 * the list may only shrink: a listed file that gains its test, or no longer exists, must leave it
 * (the test says so), and a new file without a test fails.
 */
const withoutTest = new Set([
  'packages/client/src/cli/apply.ts',
  'packages/client/src/cli/commands.ts',
  'packages/client/src/cli/completion.ts',
  'packages/client/src/cli/config.ts',
  'packages/client/src/cli/diff.ts',
  'packages/client/src/cli/errors.ts',
  'packages/client/src/cli/events.ts',
  'packages/client/src/cli/kinds.ts',
  'packages/client/src/cli/main.ts',
  'packages/client/src/cli/manifests.ts',
  'packages/client/src/cli/output.ts',
  'packages/client/src/cli/records.ts',
  'packages/client/src/cli/session.ts',
  'packages/client/src/cli/transport.ts',
  'packages/client/src/client.ts',
  'packages/client/src/errors.ts',
  'packages/client/src/extra-endpoints.ts',
  'packages/client/src/index.ts',
  'packages/client/src/task-schemas.ts',
  'packages/client/src/types.ts',
  'packages/engine/src/audit/audit-context.ts',
  'packages/engine/src/audit/auditing-store.ts',
  'packages/engine/src/auth/login-limiter.ts',
  'packages/engine/src/auth/password-policy.ts',
  'packages/engine/src/auth/passwords.ts',
  'packages/engine/src/auth/roles.ts',
  'packages/engine/src/auth/token-user.ts',
  'packages/engine/src/auth/tokens.ts',
  'packages/engine/src/broker/embedded-broker.ts',
  'packages/engine/src/broker/kafka-jars.ts',
  'packages/engine/src/core/etag.ts',
  'packages/engine/src/core/keytool-secrets.ts',
  'packages/engine/src/core/serial-queue.ts',
  'packages/engine/src/http/access-control.ts',
  'packages/engine/src/http/body-parsers.ts',
  'packages/engine/src/http/handler-checked-body.ts',
  'packages/engine/src/http/health.ts',
  'packages/engine/src/http/http-layer-errors.ts',
  'packages/engine/src/http/metrics-server.ts',
  'packages/engine/src/http/node-context.ts',
  'packages/engine/src/http/openapi.ts',
  'packages/engine/src/kafka/broker-errors.ts',
  'packages/engine/src/kafka/record-batches.ts',
  'packages/engine/src/kafka/start-position.ts',
  'packages/engine/src/kafka/topic-admin.ts',
  'packages/engine/src/kafka/topic-clients.ts',
  'packages/engine/src/kafka/topic-tails.ts',
  'packages/engine/src/kafka/weir-topic-setup.ts',
  'packages/engine/src/kafka/weir-topics.ts',
  'packages/engine/src/main.ts',
  'packages/engine/src/node/api.ts',
  'packages/engine/src/node/node.ts',
  'packages/engine/src/nodes/node-registry.ts',
  'packages/engine/src/resources/lookup.ts',
  'packages/engine/src/resources/pipeline.ts',
  'packages/engine/src/resources/resource-kind.ts',
  'packages/engine/src/resources/rule.ts',
  'packages/engine/src/resources/serialised-list.ts',
  'packages/engine/src/resources/task.ts',
  'packages/engine/src/resources/topology.ts',
  'packages/engine/src/routes/index.ts',
  'packages/engine/src/routes/list-reply.ts',
  'packages/engine/src/routes/route-module.ts',
  'packages/engine/src/routes/topic-schemas.ts',
  'packages/engine/src/store/config-store.ts',
  'packages/engine/src/store/open-store.ts',
  'packages/engine/src/stream/engine-metrics.ts',
  'packages/engine/src/stream/metric-names.ts',
  'packages/engine/src/stream/stream-engine.ts',
  'packages/engine/src/stream/worker-protocol.ts',
  'packages/engine/src/stream/worker-states.ts',
  'packages/engine/src/stream/worker-stats.ts',
  'packages/engine/src/stream/worker-thread.ts',
  'packages/engine/src/tasks/event-values.ts',
  'packages/engine/src/tasks/index.ts',
  'packages/engine/src/tasks/java-time-pattern.ts',
  'packages/engine/src/tasks/pdl-programs.ts',
  'packages/engine/src/tasks/raw-text.ts',
  'packages/engine/src/tasks/registry.ts',
  'packages/engine/src/tasks/strftime-pattern.ts',
  'packages/engine/src/tasks/task-definition-error.ts',
  'packages/engine/src/tasks/task-definitions.ts',
  'packages/engine/src/tasks/task-function.ts',
  'packages/engine/src/tasks/task-results.ts',
  'packages/engine/src/tasks/time-formats.ts',
  'packages/engine/src/tasks/time-pattern.ts',
  'packages/engine/src/validation/json-schema.ts',
  'packages/pdl/src/ast.ts',
  'packages/pdl/src/check.ts',
  'packages/pdl/src/compileErrors.ts',
  'packages/pdl/src/correlationFunctions.ts',
  'packages/pdl/src/functions.ts',
  'packages/pdl/src/index.ts',
  'packages/pdl/src/limits.ts',
  'packages/pdl/src/lookup.ts',
  'packages/pdl/src/outputNames.ts',
  'packages/pdl/src/stateStore.ts',
  'packages/pdl/src/textParsers.ts',
  'packages/pdl/src/tokenKind.ts',
  'packages/pdl/src/values.ts',
  'packages/pdl/src/wildcard.ts',
  'packages/sigma/src/condition.ts',
  'packages/sigma/src/correlation.ts',
  'packages/sigma/src/detection.ts',
  'packages/sigma/src/errors.ts',
  'packages/sigma/src/index.ts',
  'packages/sigma/src/mapping.ts',
  'packages/sigma/src/metadata.ts',
  'packages/sigma/src/pdlText.ts',
  'packages/sigma/src/sigmaString.ts',
  'packages/ui/src/app/App.tsx',
  'packages/ui/src/app/InitPage.tsx',
  'packages/ui/src/app/LoginPage.tsx',
  'packages/ui/src/app/Shell.tsx',
  'packages/ui/src/app/pages.ts',
  'packages/ui/src/components/CenteredForm.tsx',
  'packages/ui/src/components/ConfirmDelete.tsx',
  'packages/ui/src/components/DeleteButton.tsx',
  'packages/ui/src/components/ErrorAlert.tsx',
  'packages/ui/src/components/MessageTable.tsx',
  'packages/ui/src/components/NameEmailInputs.tsx',
  'packages/ui/src/components/NotFoundAlert.tsx',
  'packages/ui/src/components/RecordDrawer.tsx',
  'packages/ui/src/components/RecordFields.tsx',
  'packages/ui/src/components/RowActions.tsx',
  'packages/ui/src/components/SaveBar.tsx',
  'packages/ui/src/components/Sparkline.tsx',
  'packages/ui/src/components/VirtualTable.tsx',
  'packages/ui/src/components/useOpenRecord.ts',
  'packages/ui/src/components/useSaveRecord.ts',
  'packages/ui/src/forms/SchemaForm.tsx',
  'packages/ui/src/lib/api.ts',
  'packages/ui/src/lib/attack.ts',
  'packages/ui/src/lib/download.ts',
  'packages/ui/src/lib/errors.ts',
  'packages/ui/src/lib/path-id.ts',
  'packages/ui/src/lib/pipeline-steps.ts',
  'packages/ui/src/lib/router.tsx',
  'packages/ui/src/lib/session.tsx',
  'packages/ui/src/lib/useCluster.ts',
  'packages/ui/src/lib/useMessageBuffer.ts',
  'packages/ui/src/lib/usePoll.ts',
  'packages/ui/src/main.tsx',
  'packages/ui/src/pages/ConfigurationPage.tsx',
  'packages/ui/src/pages/CoveragePage.tsx',
  'packages/ui/src/pages/LookupsPage.tsx',
  'packages/ui/src/pages/OverviewPage.tsx',
  'packages/ui/src/pages/PipelinesPage.tsx',
  'packages/ui/src/pages/ProfilePage.tsx',
  'packages/ui/src/pages/TopologiesPage.tsx',
  'packages/ui/src/pages/UsersPage.tsx',
  'packages/ui/src/pages/coverage.ts',
  'packages/ui/src/pages/message-filter.ts',
  'packages/ui/src/pdl/PdlEditor.tsx',
  'packages/ui/src/pdl/pdlLanguage.ts',
]);

const root = path.resolve(import.meta.dirname, '../../../..');

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every source file, as `packages/<p>/src/…`, with whether its mirrored test exists. */
function sourceFiles(): { file: string; tested: boolean }[] {
  const packages = readdirSync(path.join(root, 'packages')).filter((p) =>
    existsSync(path.join(root, 'packages', p, 'src')),
  );
  return packages.flatMap((p) =>
    sources(path.join(root, 'packages', p, 'src')).map((full) => {
      const rel = path.relative(path.join(root, 'packages', p, 'src'), full);
      const stem = rel.replace(/\.tsx?$/, '');
      const tested = ['.test.ts', '.test.tsx'].some((ext) =>
        existsSync(path.join(root, 'packages', p, 'test', stem + ext)),
      );
      return { file: path.posix.join('packages', p, 'src', ...rel.split(path.sep)), tested };
    }),
  );
}

test('every source file has a mirrored test, except the allow-list, which only shrinks', () => {
  const files = sourceFiles();
  const untested = files.filter((f) => !f.tested && !withoutTest.has(f.file)).map((f) => f.file);
  assert.deepEqual(
    untested,
    [],
    'source files without a mirrored test (packages/<p>/test/<same path>.test.ts): write it',
  );
  const nowTested = files.filter((f) => f.tested && withoutTest.has(f.file)).map((f) => f.file);
  assert.deepEqual(nowTested, [], 'these files have a mirrored test now: remove them from the allow-list');
  const existing = new Set(files.map((f) => f.file));
  const gone = [...withoutTest].filter((f) => !existing.has(f));
  assert.deepEqual(gone, [], 'these allow-listed files no longer exist: remove them from the allow-list');
});
