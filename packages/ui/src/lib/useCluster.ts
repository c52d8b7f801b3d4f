import { WeirClient } from '@weir/client';
import type { EngineWarning, MetricsSummary, Node } from '@weir/contract';
import { useEffect, useRef, useState } from 'react';
import { api } from './api.ts';
import { clusterReading, type ClusterReading } from './cluster-metrics.ts';
import { errorText } from './errors.ts';
import { usePoll } from './usePoll.ts';

/** A node as `GET /api/nodes` lists it, or the answering node before its first heartbeat lists it (its uuid only). */
export type NodeView = Pick<Node, 'uuid' | 'host' | 'rest' | 'group'> & Partial<Node>;

export interface NodeStatus {
  readonly node: NodeView;
  /** The node the UI server's `/api` goes to. */
  readonly home: boolean;
  /** One state per stream worker (`GET /api/engine/state` of that node). */
  readonly states?: string[];
  readonly summary?: MetricsSummary;
  /** The node's retention warnings (`GET /api/engine/warnings` of that node). */
  readonly warnings?: EngineWarning[];
  /** Why the node could not be read (unreachable, dead, refused). */
  readonly error?: string;
}

const clients = new Map<string, WeirClient>();

/**
 * The SDK pointed at one node through the UI server (`/ui/nodes/{uuid}/api/…`, docs/ui.md → Cluster),
 * with the session's current access token: the page's own client refreshes it, and is called first
 * in every round, so the token sent here is fresh.
 */
export function nodeApi(status: Pick<NodeStatus, 'node' | 'home'>): WeirClient {
  if (status.home) return api;
  const uuid = status.node.uuid;
  let client = clients.get(uuid);
  if (!client) {
    client = new WeirClient({
      baseUrl: `/ui/nodes/${encodeURIComponent(uuid)}`,
      fetch: (input, init) => {
        const token = api.tokens?.access_token;
        const headers = {
          ...(init?.headers as Record<string, string>),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        };
        return fetch(input, { ...init, headers });
      },
    });
    clients.set(uuid, client);
  }
  return client;
}

async function readCluster(): Promise<NodeStatus[]> {
  const own = await api.metricsSummary();
  const nodes = (await api.nodes()) as NodeView[];
  if (!nodes.some((n) => n.uuid === own.node)) nodes.unshift({ uuid: own.node, host: '', rest: '', group: '' });
  return Promise.all(
    nodes.map(async (node): Promise<NodeStatus> => {
      const home = node.uuid === own.node;
      if (!home && node.alive === false) return { node, home, error: 'not alive (no heartbeat)' };
      const client = nodeApi({ node, home });
      try {
        const [summary, engine, warnings] = await Promise.all([
          home ? own : client.metricsSummary(),
          client.engineState(),
          client.engineWarnings(),
        ]);
        return { node, home, summary, states: engine.states, warnings };
      } catch (err) {
        return { node, home, error: errorText(err) };
      }
    }),
  );
}

/** The retention warnings of every node that answered, one per input topic and kind (the earliest seen). */
export function clusterWarnings(nodes: readonly NodeStatus[] | undefined): EngineWarning[] {
  const merged = new Map<string, EngineWarning>();
  for (const n of nodes ?? [])
    for (const w of n.warnings ?? []) {
      const key = `${w.kind}\u0000${w.topic}`;
      const seen = merged.get(key);
      if (!seen || w.since < seen.since) merged.set(key, w);
    }
  return [...merged.values()];
}

/**
 * Every node of the cluster every `ms`: its registry entry, engine state, retention warnings and metrics summary, and
 * the cluster's reading (totals and rates over the nodes that answered; cluster-metrics.ts).
 */
export function useCluster(ms = 2000): {
  nodes: NodeStatus[] | undefined;
  reading: ClusterReading | undefined;
  error: string | undefined;
  reload: () => void;
} {
  const poll = usePoll(readCluster, ms);
  const previous = useRef(new Map<string, MetricsSummary>());
  const [reading, setReading] = useState<ClusterReading>();
  useEffect(() => {
    if (!poll.data) return;
    const summaries = poll.data.flatMap((n) => (n.summary ? [n.summary] : []));
    setReading(clusterReading(previous.current, summaries, Date.now()));
    previous.current = new Map(summaries.map((s) => [s.node, s]));
  }, [poll.data]);
  return { nodes: poll.data, reading, error: poll.error, reload: poll.reload };
}
