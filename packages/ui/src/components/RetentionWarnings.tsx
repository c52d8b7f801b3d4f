import { Alert, Code, Stack, Text } from '@mantine/core';
import type { EngineWarning, Topology } from '@weir/contract';

const titles: Record<EngineWarning['kind'], string> = {
  RECORDS_NEAR_RETENTION: 'input records near their retention',
  RECORDS_NEAR_RETENTION_BYTES: 'unread input near the topic size limit',
  RECORDS_DELETED_UNREAD: 'input records deleted before Weir read them',
};

/** The warnings that concern a topology: those naming it, or its input topic. */
export function warningsOf(warnings: readonly EngineWarning[], topology: Topology): EngineWarning[] {
  return warnings.filter((w) => w.topologies.includes(topology.id) || w.topic === topology.input.name);
}

/**
 * The engine's retention warnings on a topology (docs/ui.md → Topologies): what happened and the
 * fix, the topic setting to change. Nothing when there is none.
 */
export function RetentionWarnings({ warnings, topology }: { warnings: readonly EngineWarning[]; topology: Topology }) {
  const shown = warningsOf(warnings, topology);
  if (shown.length === 0) return null;
  return (
    <Stack gap="xs">
      {shown.map((w) => (
        // The title is text of the body: Mantine's coloured alert title is too faint on a light background (axe, color-contrast).
        <Alert
          key={`${w.kind}-${w.topic}`}
          color={w.kind === 'RECORDS_DELETED_UNREAD' ? 'red' : 'yellow'}
          role="alert"
          data-testid="retention-warning"
        >
          <Stack gap={4}>
            <Text size="sm" fw={700}>
              Topology {topology.id} · {topology.name}: {titles[w.kind]}
            </Text>
            <Text size="sm">{w.message}</Text>
            <Text size="sm">
              <strong>Fix:</strong> <Code>{w.fix}</Code>
            </Text>
            <Text size="xs" c="dimmed">
              Since {new Date(w.since).toLocaleString()}
            </Text>
          </Stack>
        </Alert>
      ))}
    </Stack>
  );
}
