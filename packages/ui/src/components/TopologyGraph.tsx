import '@xyflow/react/dist/style.css';
import { useComputedColorScheme } from '@mantine/core';
import type { Pipeline, Task, Topology } from '@weir/contract';
import {
  Background,
  Controls,
  MarkerType,
  Position,
  ReactFlow,
  type Edge,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import { useMemo } from 'react';
import { buildTopologyGraph, type TopologyFigures } from '../lib/topology-layout.ts';

export type { TopologyFigures };

function PipelineBox({ data }: NodeProps<Node<{ label: string }>>) {
  return (
    <div
      style={{
        width: '100%',
        height: '100%',
        border: '1px dashed var(--mantine-color-default-border)',
        borderRadius: 8,
        background: 'var(--mantine-color-default-hover)',
      }}
    >
      <div style={{ fontSize: 12, fontWeight: 600, padding: '2px 8px' }}>{data.label}</div>
    </div>
  );
}
const nodeTypes = { pipeline: PipelineBox };

/**
 * The topology as a graph: input topic → each pipeline's tasks in order (pipelines drawn as boxes
 * around their tasks; an APPLY_RULES task lists its rules) → output topics, laid out left to right by
 * dagre; dashed side paths lead to the alerts topic and the input's `<input>-dlq`. Edges out of the
 * input and into each output carry the live records/s; nodes carry their dead letters.
 */
export function TopologyGraph({
  topology,
  pipelines,
  tasks,
  figures,
}: {
  topology: Topology;
  pipelines: ReadonlyMap<number, Pipeline>;
  tasks: ReadonlyMap<number, Task>;
  figures: TopologyFigures;
}) {
  const scheme = useComputedColorScheme('light');
  const { nodes, edges } = useMemo(() => {
    const graph = buildTopologyGraph(topology, pipelines, tasks, figures);
    // Left to right: edges leave a node on its right and enter on its left.
    const nodes: Node[] = graph.nodes.map((n) => ({
      ...n,
      sourcePosition: Position.Right,
      targetPosition: Position.Left,
    }));
    const edges: Edge[] = graph.edges.map(({ dashed, ...e }) => ({
      ...e,
      markerEnd: { type: MarkerType.ArrowClosed },
      style: dashed ? { strokeDasharray: '6 4' } : undefined,
    }));
    return { nodes, edges };
  }, [topology, pipelines, tasks, figures]);
  // A new shape (pipelines or tasks loaded or changed) is fitted into view again; a new rate is not.
  const shape = nodes.map((n) => `${n.id}:${String(n.data.label)}`).join('|');
  return (
    <div
      style={{ height: 420, border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
      data-testid="topology-graph"
    >
      <ReactFlow
        key={shape}
        fitViewOptions={{ maxZoom: 1, padding: 0.15 }}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        colorMode={scheme}
        fitView
        nodesConnectable={false}
        nodesDraggable={false}
        elementsSelectable={false}
        aria-label={`Graph of topology ${topology.id}`}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
