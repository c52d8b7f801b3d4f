import { Alert, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useMemo, useState, type MouseEvent } from 'react';
import { api } from '../lib/api.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { attackSource, techniqueName } from '../lib/attack.ts';
import { useRouter } from '../lib/router.tsx';
import { usePoll } from '../lib/usePoll.ts';
import { coverage, type CoverageCell } from './coverage.ts';
import './coverage.css';

const rulesOf = (id: string) => `/rules?technique=${encodeURIComponent(id)}`;

/**
 * `/coverage`: the ATT&CK Enterprise matrix (tactics as columns, techniques under them) with the
 * techniques covered by enabled rules' annotations marked; each covered cell links to its rules.
 */
export default function CoveragePage() {
  const { navigate } = useRouter();
  const rules = usePoll(() => api.rules.list(), 0);
  const [coveredOnly, setCoveredOnly] = useState(false);
  const cov = useMemo(() => coverage(rules.data ?? []), [rules.data]);
  const go = (to: string) => (e: MouseEvent) => {
    e.preventDefault();
    navigate(to);
  };
  return (
    <Stack>
      <Title order={1}>ATT&CK coverage</Title>
      <ErrorAlert error={rules.error} />
      <Group justify="space-between">
        <Text data-testid="coverage-summary">
          {cov.covered} of {cov.total} techniques covered by {cov.enabledRules} enabled rule
          {cov.enabledRules === 1 ? '' : 's'} (green; the number is the rules covering the technique or its
          sub-techniques)
        </Text>
        <Switch
          label="Covered techniques only (and their tactics)"
          checked={coveredOnly}
          onChange={(e) => setCoveredOnly(e.currentTarget.checked)}
        />
      </Group>
      {cov.unknown.size > 0 && (
        <Alert color="blue" role="status" title="Annotations not in the ATT&CK table">
          {[...cov.unknown].map(([id, ruleIds]) => `${id} (${ruleIds.join(', ')})`).join('; ')}
        </Alert>
      )}
      {cov.disabledOnly.length > 0 && (
        <Text size="sm" data-testid="disabled-only">
          Annotated only on disabled rules (not counted):{' '}
          {cov.disabledOnly.map((id) => `${id} ${techniqueName(id) ?? ''}`.trim()).join(', ')}
        </Text>
      )}
      {/* Scrolled sideways on narrow screens: focusable, so the keyboard can scroll it even when no cell is a link. */}
      <div className="attack-matrix" data-testid="attack-matrix" tabIndex={0} role="region" aria-label="ATT&CK matrix">
        {cov.columns
          .filter((c) => !coveredOnly || c.covered > 0)
          .map(({ tactic, cells, covered }) => (
            <section key={tactic.id} aria-labelledby={`tactic-${tactic.id}`} className="attack-column">
              <h2 id={`tactic-${tactic.id}`} className="attack-tactic">
                {tactic.name}
                <br />
                <span className="attack-tactic-count">
                  {covered} / {cells.length}
                </span>
              </h2>
              <ul>
                {cells
                  .filter((c) => !coveredOnly || c.ruleCount > 0)
                  .map((c) => (
                    <Cell key={c.technique.id} cell={c} go={go} />
                  ))}
              </ul>
            </section>
          ))}
      </div>
      <Text size="xs">{attackSource}. Shipped with the console; nothing is fetched at run time.</Text>
    </Stack>
  );
}

function Cell({ cell, go }: { cell: CoverageCell; go: (to: string) => (e: MouseEvent) => void }) {
  const t = cell.technique;
  if (cell.ruleCount === 0) {
    return (
      <li className="attack-cell" data-technique={t.id}>
        <span className="attack-id">{t.id}</span> {t.name}
      </li>
    );
  }
  return (
    <li className="attack-cell attack-covered" data-technique={t.id}>
      <a
        href={rulesOf(t.id)}
        onClick={go(rulesOf(t.id))}
        aria-label={`${t.id} ${t.name}: ${cell.ruleCount} enabled rule${cell.ruleCount === 1 ? '' : 's'}`}
      >
        <span className="attack-id">{t.id}</span> {t.name} <span className="attack-count">({cell.ruleCount})</span>
      </a>
      {cell.subs.length > 0 && (
        <ul>
          {cell.subs.map((s) => (
            <li key={s.technique.id}>
              <a href={rulesOf(s.technique.id)} onClick={go(rulesOf(s.technique.id))}>
                <span className="attack-id">{s.technique.id}</span> {s.technique.name} ({s.rules.length})
              </a>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
