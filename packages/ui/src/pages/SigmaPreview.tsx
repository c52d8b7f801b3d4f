import { Anchor, Badge, Table, Text } from '@mantine/core';
import type { SigmaImportResult } from '@weir/contract';
import { resourcePath } from '../app/palette.ts';
import { useRouter } from '../lib/router.tsx';
import { sourceLabel, type SigmaBundle } from './sigma-files.ts';

type Result = SigmaImportResult['results'][number] & {
  rule?: { id: string; name: string };
  appliedTo?: string[];
  usedBy?: string[];
};

const statusColor = { converted: 'green', error: 'red', filter: 'blue' } as const;

/** What happens to a document: why it fails, whom a filter applies to, warnings. */
function reason(r: Result): string {
  if (r.status === 'error') return r.path ? `${r.path}: ${r.reason ?? ''}` : (r.reason ?? '');
  const notes: string[] = [];
  if (r.status === 'filter') notes.push(`applied to ${(r.appliedTo ?? []).join(', ') || 'no rule'}`);
  if (r.status === 'converted' && r.usedBy) notes.push(`not stored on its own: used by ${r.usedBy.join(', ')}`);
  notes.push(...(r.warnings ?? []));
  return notes.join('; ');
}

/**
 * The import's answer per document (docs/ui.md, "Sigma import"): the file it came from, its
 * status, the rule it becomes (a link once stored) and the reason or warnings.
 */
export function SigmaPreview({ answer, files }: { answer: SigmaImportResult; files: SigmaBundle }) {
  const { navigate } = useRouter();
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table aria-label="Sigma documents" striped verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>File</Table.Th>
            <Table.Th>Title</Table.Th>
            <Table.Th miw={130}>Status</Table.Th>
            <Table.Th>Rule</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(answer.results as Result[]).map((r) => (
            <Table.Tr key={r.document}>
              <Table.Td>{sourceLabel(files, r.document)}</Table.Td>
              <Table.Td>{r.title ?? ''}</Table.Td>
              <Table.Td>
                <Badge variant="dot" color={statusColor[r.status]}>
                  {r.status === 'converted' ? (r.stored ? 'stored' : 'converted') : r.status}
                </Badge>
              </Table.Td>
              <Table.Td>
                {r.rule && r.stored ? (
                  <Anchor
                    href={resourcePath.rule(r.rule.id)}
                    onClick={(e) => {
                      e.preventDefault();
                      navigate(resourcePath.rule(r.rule!.id));
                    }}
                  >
                    {r.rule.id}
                  </Anchor>
                ) : (
                  (r.rule?.id ?? '')
                )}
                {r.rule && r.rule.name !== r.title && (
                  <Text size="xs" c="dimmed">
                    named {r.rule.name}
                  </Text>
                )}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{reason(r)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
