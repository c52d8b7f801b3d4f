import {
  Badge,
  Button,
  Card,
  Fieldset,
  Group,
  MultiSelect,
  Select,
  type SelectProps,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Autocomplete,
} from '@mantine/core';
import { configKinds, type EngineWarning, type TopicEndpoint, type Topology } from '@weir/contract';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../lib/api.ts';
import { ResourcePage, useResourcePage } from '../components/ResourcePage.tsx';
import { RecordFields } from '../components/RecordFields.tsx';
import { RetentionWarnings } from '../components/RetentionWarnings.tsx';
import { SaveBar } from '../components/SaveBar.tsx';
import { TopologyGraph, type TopologyFigures } from '../components/TopologyGraph.tsx';
import { useSaveRecord } from '../components/useSaveRecord.ts';
import { usePoll } from '../lib/usePoll.ts';
import { serdeOptions } from '../lib/serde-names.ts';
import { clusterWarnings, useCluster } from '../lib/useCluster.ts';
import type { ClusterReading } from '../lib/cluster-metrics.ts';
import { labelsOf, total } from '../lib/cluster-metrics.ts';

/** A serde in the open list: its short name, the full class name under it. */
const serdeOption: SelectProps['renderOption'] = ({ option }) => (
  <Stack gap={0}>
    <Text size="sm">{option.label}</Text>
    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
      {option.value}
    </Text>
  </Stack>
);

const stringSerde = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const endpoint = (name = ''): TopicEndpoint => ({ name, keySerde: stringSerde, valueSerde: stringSerde });
const noFigures: TopologyFigures = { inRate: undefined, outRate: new Map(), deadLetters: new Map() };

/** Records/s and dead letters per topology over the whole cluster (the Overview's source; topologies are labelled by name). */
function useTopologyFigures(reading: ClusterReading | undefined): ReadonlyMap<string, TopologyFigures> {
  return useMemo(() => {
    const figures = new Map<
      string,
      { inRate: number | undefined; outRate: Map<string, number>; deadLetters: Map<string, number> }
    >();
    if (!reading) return figures;
    const { totals, rates } = reading;
    const of = (name: string) => {
      let f = figures.get(name);
      if (!f) {
        f = { inRate: rates && total(rates, 'in', name), outRate: new Map(), deadLetters: new Map() };
        figures.set(name, f);
      }
      return f;
    };
    for (const [name] of labelsOf(totals, 'in')) of(name!);
    for (const [name, topic] of labelsOf(totals, 'out'))
      if (rates) of(name!).outRate.set(topic!, total(rates, 'out', name!, topic!));
    for (const [name, task] of labelsOf(totals, 'dead'))
      of(name!).deadLetters.set(task!, total(totals, 'dead', name!, task!));
    return figures;
  }, [reading]);
}

/** Topologies: the graph of each (React Flow + dagre) with live rates; create, edit (with serdes), delete. */
export default function TopologiesPage() {
  const page = useResourcePage(configKinds.topologies, api.topologies);
  const pipelines = usePoll(() => api.pipelines.list(), 0);
  const tasks = usePoll(() => api.tasks.list(), 0);
  const cluster = useCluster(2000);
  const figures = useTopologyFigures(cluster.reading);
  const warnings = useMemo(() => clusterWarnings(cluster.nodes), [cluster.nodes]);
  const [shown, setShown] = useState<number>();
  const pipelineMap = useMemo(() => new Map((pipelines.data ?? []).map((p) => [p.id, p])), [pipelines.data]);
  const taskMap = useMemo(() => new Map((tasks.data ?? []).map((t) => [t.id, t])), [tasks.data]);
  const list = page.records.data ?? [];
  // `/topologies/{id}` (the palette's link) opens that topology as its View/Edit button does and shows
  // its graph; closing the drawer goes back to `/topologies`, the graph staying on it.
  const { linked } = page;
  useEffect(() => {
    if (linked) setShown(linked.id);
  }, [linked?.id]);
  const current = list.find((t) => t.id === shown) ?? list[0];
  return (
    <ResourcePage
      page={page}
      error={pipelines.error ?? tasks.error}
      newRecord={(id) => ({
        id,
        name: '',
        description: '',
        group: 'default',
        enabled: true,
        input: endpoint(),
        pipelines: [],
        output: [],
      })}
      above={list.map((t) => (
        <RetentionWarnings key={t.id} warnings={warnings} topology={t} />
      ))}
      columns={[
        { header: 'Name', cell: (t) => t.name },
        { header: 'Input', cell: (t) => t.input.name },
        { header: 'Pipelines', cell: (t) => (t.pipelines ?? []).join(' → ') },
        { header: 'Outputs', cell: (t) => (t.output ?? []).map((o) => o.name).join(', ') },
        {
          header: 'State',
          cell: (t) => (
            <Badge variant="dot" color={t.enabled === false ? 'gray' : 'green'}>
              {t.enabled === false ? 'disabled' : 'enabled'}
            </Badge>
          ),
        },
      ]}
      rowActions={(t) => (
        <Button
          size="compact-xs"
          variant="outline"
          onClick={() => setShown(t.id)}
          aria-label={`Graph of topology ${t.id}`}
        >
          Graph
        </Button>
      )}
      footer={
        current ? (
          <Card withBorder>
            <Group justify="space-between" mb="xs">
              <Title order={2} size="h4">
                Topology {current.id} · {current.name}
              </Title>
              <Text size="sm">Live records/s (the whole cluster, refreshed every 2 s)</Text>
            </Group>
            <TopologyGraph
              topology={current}
              pipelines={pipelineMap}
              tasks={taskMap}
              figures={figures.get(current.name) ?? noFigures}
            />
          </Card>
        ) : (
          <Text size="sm">No topology yet.</Text>
        )
      }
      versions={api.topologies}
      editor={(open, readOnly) => (
        <TopologyEditor
          initial={open.record}
          isNew={open.isNew}
          warnings={open.isNew ? [] : warnings}
          readOnly={readOnly}
          pipelines={(pipelines.data ?? []).map((p) => ({ value: String(p.id), label: `${p.id} · ${p.name}` }))}
          onSaved={(t) => {
            page.records.reload();
            setShown(t.id);
            page.close();
          }}
        />
      )}
    />
  );
}

function TopologyEditor({
  initial,
  isNew,
  readOnly,
  pipelines,
  onSaved,
  warnings,
}: {
  initial: Topology;
  isNew: boolean;
  warnings: readonly EngineWarning[];
  readOnly: boolean;
  pipelines: { value: string; label: string }[];
  onSaved: (t: Topology) => void;
}) {
  const [topology, setTopology] = useState<Topology>(initial);
  const { save, error, errors } = useSaveRecord(api.topologies, configKinds.topologies, topology, isNew, onSaved);
  const serdes = usePoll(() => api.serdes().then((s) => s.serde), 0);
  const topics = usePoll(() => api.topics(), 0);
  const outputs = topology.output ?? [];
  const setOutput = (i: number, o: TopicEndpoint | undefined) =>
    setTopology({
      ...topology,
      output: o === undefined ? outputs.filter((_, j) => j !== i) : outputs.map((x, j) => (j === i ? o : x)),
    });
  const endpointFields = (e: TopicEndpoint, path: string, label: string, onChange: (e: TopicEndpoint) => void) => (
    <Stack gap="xs">
      <Autocomplete
        label={`${label} topic`}
        required
        readOnly={readOnly}
        data={topics.data ?? []}
        value={e.name}
        error={errors[`${path}.name`]}
        onChange={(name) => onChange({ ...e, name })}
      />
      <Group grow>
        <Select
          label="Key serde"
          disabled={readOnly}
          data={serdeOptions(serdes.data ?? [e.keySerde])}
          renderOption={serdeOption}
          title={e.keySerde}
          value={e.keySerde}
          allowDeselect={false}
          error={errors[`${path}.keySerde`]}
          onChange={(v) => v && onChange({ ...e, keySerde: v })}
        />
        <Select
          label="Value serde"
          disabled={readOnly}
          data={serdeOptions(serdes.data ?? [e.valueSerde])}
          renderOption={serdeOption}
          title={e.valueSerde}
          value={e.valueSerde}
          allowDeselect={false}
          error={errors[`${path}.valueSerde`]}
          onChange={(v) => v && onChange({ ...e, valueSerde: v })}
        />
      </Group>
    </Stack>
  );
  return (
    <Stack>
      <RetentionWarnings warnings={warnings} topology={initial} />
      <RecordFields record={topology} onChange={setTopology} isNew={isNew} readOnly={readOnly} errors={errors} />
      <Group grow align="end">
        <TextInput
          label="Group"
          readOnly={readOnly}
          value={topology.group ?? ''}
          error={errors.group}
          onChange={(e) => setTopology({ ...topology, group: e.currentTarget.value })}
        />
        <Switch
          label="Enabled"
          disabled={readOnly}
          checked={topology.enabled !== false}
          onChange={(e) => setTopology({ ...topology, enabled: e.currentTarget.checked })}
        />
      </Group>
      <Fieldset legend="Input">
        {endpointFields(topology.input, 'input', 'Input', (input) => setTopology({ ...topology, input }))}
      </Fieldset>
      <MultiSelect
        label="Pipelines, in the order they run"
        disabled={readOnly}
        data={pipelines}
        searchable
        error={errors.pipelines}
        value={(topology.pipelines ?? []).map(String)}
        onChange={(v) => setTopology({ ...topology, pipelines: v.map(Number) })}
      />
      <Fieldset legend="Outputs">
        <Stack>
          {outputs.map((o, i) => (
            <Fieldset key={i} legend={`Output ${i + 1}`} variant="filled">
              {endpointFields(o, `output[${i}]`, `Output ${i + 1}`, (e) => setOutput(i, e))}
              {!readOnly && (
                <Group mt="xs">
                  <Button
                    size="compact-xs"
                    variant="default"
                    onClick={() => setOutput(i, undefined)}
                    aria-label={`Remove output ${i + 1}`}
                  >
                    Remove
                  </Button>
                </Group>
              )}
            </Fieldset>
          ))}
          {outputs.length === 0 && <Text size="sm">No output topic: alerts still go to the alerts topic.</Text>}
          {!readOnly && (
            <Group>
              <Button
                size="compact-sm"
                variant="default"
                onClick={() => setTopology({ ...topology, output: [...outputs, endpoint()] })}
              >
                Add output
              </Button>
            </Group>
          )}
        </Stack>
      </Fieldset>
      <SaveBar what="topology" error={error} readOnly={readOnly} onSave={() => void save()} />
    </Stack>
  );
}
