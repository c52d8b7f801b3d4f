import { Anchor, Badge, Card, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { techniqueName } from '../lib/attack.ts';
import { isLink, sigmaMetadata } from '../lib/sigma-metadata.ts';

/**
 * An imported Sigma rule's metadata shown as such (docs/ui.md, "Sigma metadata"): the description
 * as written, techniques as ATT&CK chips, tactics as tactics, references as links, and the other
 * tags and `sigma.*` metadata in a panel. Nothing for a rule that did not come from Sigma.
 */
export function SigmaMetadata({ rule }: { rule: { annotations?: readonly string[]; description?: string } }) {
  const m = sigmaMetadata(rule);
  if (!m.fromSigma) return null;
  return (
    <Card withBorder component="section" aria-labelledby="sigma-metadata-title" data-testid="sigma-metadata">
      <Stack gap="sm">
        <Title order={2} size="h4" id="sigma-metadata-title">
          Sigma metadata
        </Title>
        {m.description !== '' && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="sigma-description">
            {m.description}
          </Text>
        )}
        {m.attribution && (
          <Text size="sm" fs="italic">
            {m.attribution}
          </Text>
        )}
        {m.techniques.length > 0 && (
          <Group gap={6} wrap="nowrap" align="start">
            <Text size="sm" fw={500} w={90} style={{ flexShrink: 0 }} id="sigma-techniques">
              Techniques
            </Text>
            <Group gap={6} role="list" aria-labelledby="sigma-techniques">
              {m.techniques.map((t) => (
                <Badge
                  key={t}
                  role="listitem"
                  variant="light"
                  title={techniqueName(t) ?? 'not in the shipped ATT&CK table'}
                  style={{ textTransform: 'none' }}
                >
                  {t}
                  {techniqueName(t) ? ` ${techniqueName(t)}` : ''}
                </Badge>
              ))}
            </Group>
          </Group>
        )}
        {m.tactics.length > 0 && (
          <Group gap={6} wrap="nowrap" align="start">
            <Text size="sm" fw={500} w={90} style={{ flexShrink: 0 }} id="sigma-tactics">
              Tactics
            </Text>
            <Group gap={6} role="list" aria-labelledby="sigma-tactics">
              {m.tactics.map((t) => (
                <Badge
                  key={t.shortName}
                  role="listitem"
                  variant="outline"
                  color="grape"
                  title={t.id ?? `attack.${t.shortName} (not in the shipped ATT&CK table)`}
                  style={{ textTransform: 'none' }}
                >
                  {t.name}
                </Badge>
              ))}
            </Group>
          </Group>
        )}
        {m.references.length > 0 && (
          <Stack gap={2}>
            <Text size="sm" fw={500}>
              References
            </Text>
            <List size="sm" aria-label="References">
              {m.references.map((r) => (
                <List.Item key={r}>
                  {isLink(r) ? (
                    <Anchor href={r} target="_blank" rel="noopener noreferrer">
                      {r}
                    </Anchor>
                  ) : (
                    r
                  )}
                </List.Item>
              ))}
            </List>
          </Stack>
        )}
        <Table aria-label="Sigma metadata" withRowBorders={false} verticalSpacing={2} fz="sm">
          <Table.Tbody>
            {m.metadata.map(({ key, value }, i) => (
              <Table.Tr key={`${key}-${i}`}>
                <Table.Th w={120}>{key}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
            {m.otherTags.length > 0 && (
              <Table.Tr>
                <Table.Th w={120}>tags</Table.Th>
                <Table.Td>{m.otherTags.join(', ')}</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
