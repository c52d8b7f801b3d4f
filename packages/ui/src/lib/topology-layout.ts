import { Graph, layout } from '@dagrejs/dagre';
import type { Pipeline, Task, Topology } from '@weir/contract';

/** A node of the graph as React Flow takes it (kept free of React Flow's types: node tests read it). */
export interface GraphNode {
  id: string;
  type?: 'input' | 'output' | 'pipeline';
  position: { x: number; y: number };
  data: { label: string };
  width: number;
  height: number;
  style?: Record<string, string | number>;
  zIndex?: number;
  selectable?: boolean;
  focusable?: boolean;
}
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  label?: string;
  animated: boolean;
  /** Dashed: a side path (alerts, dead letters), not the records' main flow. */
  dashed?: boolean;
}

/** Live figures of one topology (from the metrics summary): records/s in and out, dead letters. */
export interface TopologyFigures {
  readonly inRate: number | undefined;
  readonly outRate: ReadonlyMap<string, number>;
  /** Dead letters per task name (and `decode`, `topology`, `encode`). */
  readonly deadLetters: ReadonlyMap<string, number>;
}

const taskSize = { width: 190, height: 62 };
const rulesTaskSize = { width: 190, height: 84 };
/** How many rule ids an APPLY_RULES node lists before `+N more`, and how long each may be. */
const shownRules = 3;
const ruleIdLength = 24;
const topicSize = { width: 200, height: 56 };
const pad = 16;

const rate = (r: number | undefined) =>
  r === undefined ? '… rec/s' : `${r < 10 ? r.toFixed(1) : Math.round(r)} rec/s`;

/** The second line of an APPLY_RULES node: the ids of its rules, the first few, then `+N more`. */
export function rulesLine(rules: readonly string[]): string {
  if (rules.length === 0) return 'no rule';
  const ids = rules
    .slice(0, shownRules)
    .map((id) => (id.length > ruleIdLength ? `${id.slice(0, ruleIdLength - 1)}…` : id))
    .join(', ');
  return rules.length > shownRules ? `${ids} +${rules.length - shownRules} more` : ids;
}

function ruleIds(task: Task): string[] {
  const rules = (task.definition as { rules?: unknown }).rules;
  return Array.isArray(rules) ? rules.map(String) : [];
}

function deadBadge(n: number | undefined): string {
  return n ? ` · ${n} dead letter${n === 1 ? '' : 's'}` : '';
}

/**
 * The nodes and edges of a topology's graph, laid out left to right by dagre: the input topic, each
 * pipeline's tasks in order (a `pipeline` box behind them; an APPLY_RULES task lists its rules), the
 * output topics, and the side paths: the alerts topic (fed by each APPLY_RULES task) and the input's
 * dead-letter topic `<input>-dlq` (any step's failures).
 */
export function buildTopologyGraph(
  topology: Topology,
  pipelines: ReadonlyMap<number, Pipeline>,
  tasks: ReadonlyMap<number, Task>,
  figures: TopologyFigures,
): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const g = new Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 30, ranksep: 70, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const input = `topic-in-${topology.input.name}`;
  const inputDead = (figures.deadLetters.get('decode') ?? 0) + (figures.deadLetters.get('topology') ?? 0);
  nodes.push({
    id: input,
    type: 'input',
    position: { x: 0, y: 0 },
    data: { label: `⇢ ${topology.input.name}${deadBadge(inputDead)}` },
    ...topicSize,
  });
  g.setNode(input, { ...topicSize });
  // The chain: each pipeline's tasks in order, pipelines one after the other.
  const groups: { id: string; label: string; members: string[] }[] = [];
  const rulesTasks: string[] = [];
  let previous = input;
  let first = true;
  const link = (to: string) => {
    const label = first ? rate(figures.inRate) : undefined;
    edges.push({
      id: `${previous}->${to}`,
      source: previous,
      target: to,
      label,
      animated: first && (figures.inRate ?? 0) > 0,
    });
    g.setEdge(previous, to);
    previous = to;
    first = false;
  };
  for (const [pi, pid] of (topology.pipelines ?? []).entries()) {
    const p = pipelines.get(pid);
    const members: string[] = [];
    const taskIds = p?.tasks ?? [];
    if (taskIds.length === 0) {
      const id = `p${pi}-empty`;
      nodes.push({
        id,
        position: { x: 0, y: 0 },
        data: { label: p ? 'no task' : `pipeline ${pid} does not exist` },
        ...taskSize,
      });
      g.setNode(id, { ...taskSize });
      members.push(id);
      link(id);
    }
    for (const [ti, tid] of taskIds.entries()) {
      const t = tasks.get(tid);
      const id = `p${pi}-t${ti}`;
      const dead = t ? figures.deadLetters.get(t.name) : undefined;
      const applies = t?.function === 'APPLY_RULES';
      const size = applies ? rulesTaskSize : taskSize;
      if (applies) rulesTasks.push(id);
      const label = t ? `${t.name} (${t.function})${deadBadge(dead)}` : `task ${tid} does not exist`;
      nodes.push({
        id,
        position: { x: 0, y: 0 },
        data: { label: applies ? `${label}\nrules: ${rulesLine(ruleIds(t))}` : label },
        ...size,
        style: {
          ...(applies ? { whiteSpace: 'pre-line' } : {}),
          ...(dead ? { borderColor: 'var(--mantine-color-red-7)', borderWidth: 2 } : {}),
        },
      });
      g.setNode(id, { ...size });
      members.push(id);
      link(id);
    }
    groups.push({ id: `pipeline-${pi}`, label: `pipeline ${pid}${p ? ` · ${p.name}` : ''}`, members });
  }
  const last = previous;
  for (const out of topology.output ?? []) {
    const id = `topic-out-${out.name}`;
    const dead = figures.deadLetters.get('encode');
    nodes.push({
      id,
      type: 'output',
      position: { x: 0, y: 0 },
      data: { label: `${out.name} ⇢${deadBadge(dead)}` },
      ...topicSize,
    });
    g.setNode(id, { ...topicSize });
    // Nothing counted for an output yet while the input has a rate: nothing went out (0).
    const r = figures.outRate.get(out.name) ?? (figures.inRate === undefined ? undefined : 0);
    edges.push({ id: `${last}->${id}`, source: last, target: id, label: rate(r), animated: (r ?? 0) > 0 });
    g.setEdge(last, id);
  }
  const side = (id: string, label: string, from: readonly string[], edgeLabel: string) => {
    nodes.push({ id, type: 'output', position: { x: 0, y: 0 }, data: { label }, ...topicSize });
    g.setNode(id, { ...topicSize });
    for (const source of from) {
      edges.push({ id: `${source}->${id}`, source, target: id, label: edgeLabel, animated: false, dashed: true });
      g.setEdge(source, id);
    }
  };
  if (rulesTasks.length > 0) side('topic-alerts', 'alerts topic ⇢', rulesTasks, 'alerts');
  const allDead = [...figures.deadLetters.values()].reduce((a, b) => a + b, 0);
  side('topic-dlq', `${topology.input.name}-dlq ⇢${deadBadge(allDead)}`, [last], 'dead letters');
  layout(g);
  for (const n of nodes) {
    const { x, y, width, height } = g.node(n.id);
    n.position = { x: x - width / 2, y: y - height / 2 };
  }
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const boxes: GraphNode[] = groups.map((grp) => {
    const ms = grp.members.map((m) => byId.get(m)!);
    const x0 = Math.min(...ms.map((m) => m.position.x)) - pad;
    const y0 = Math.min(...ms.map((m) => m.position.y)) - pad - 18;
    const x1 = Math.max(...ms.map((m) => m.position.x + (m.width ?? 0))) + pad;
    const y1 = Math.max(...ms.map((m) => m.position.y + (m.height ?? 0))) + pad;
    return {
      id: grp.id,
      type: 'pipeline',
      position: { x: x0, y: y0 },
      data: { label: grp.label },
      width: x1 - x0,
      height: y1 - y0,
      zIndex: -1,
      selectable: false,
      focusable: false,
    };
  });
  return { nodes: [...boxes, ...nodes], edges };
}
