import { Alert, Text } from '@mantine/core';

/**
 * A task or pipeline test's warnings (docs/api.md, "Tests"): each APPLY_RULES rule the engine would
 * skip (missing, disabled or broken), one line each; nothing when there is none.
 */
export function SkippedRules({ warnings, testId }: { warnings: readonly string[] | undefined; testId: string }) {
  if (!warnings || warnings.length === 0) return null;
  return (
    <Alert color="yellow" title="Rules skipped" data-testid={testId}>
      {warnings.map((w) => (
        <Text size="sm" key={w}>
          {w}
        </Text>
      ))}
    </Alert>
  );
}
