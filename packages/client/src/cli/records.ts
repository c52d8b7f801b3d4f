import type { WeirClient } from '../client.ts';
import { WeirApiError } from '../errors.ts';
import type { KindInfo } from './kinds.ts';

type Row = Record<string, unknown>;

/** Every record of a kind, as the API returns it (topics described one by one). */
export async function listRecords(weir: WeirClient, kind: KindInfo): Promise<Row[]> {
  switch (kind.kind) {
    case 'Topic':
      return Promise.all((await weir.topics()).sort().map(async (name) => (await weir.topic(name)) as unknown as Row));
    case 'Lookup':
      return (await weir.lookups()) as unknown as Row[];
    case 'Rule':
      return (await weir.rules.list()) as unknown as Row[];
    case 'Task':
      return (await weir.tasks.list()) as unknown as Row[];
    case 'Pipeline':
      return (await weir.pipelines.list()) as unknown as Row[];
    case 'Topology':
      return (await weir.topologies.list()) as unknown as Row[];
    case 'User':
      return (await weir.users()) as unknown as Row[];
    case 'Node':
      return (await weir.nodes()) as unknown as Row[];
    case 'Group':
      return (await weir.consumerGroups()) as unknown as Row[];
  }
}

/** One record; the API's 404 is thrown as is (its message names what is missing). */
export async function getRecord(weir: WeirClient, kind: KindInfo, id: string | number): Promise<Row> {
  const s = String(id);
  const n = Number(id);
  switch (kind.kind) {
    case 'Topic':
      return (await weir.topic(s)) as unknown as Row;
    case 'Lookup':
      return (await weir.lookup(s)) as unknown as Row;
    case 'Rule':
      return (await weir.rules.get(s)) as unknown as Row;
    case 'Task':
      return (await weir.tasks.get(n)) as unknown as Row;
    case 'Pipeline':
      return (await weir.pipelines.get(n)) as unknown as Row;
    case 'Topology':
      return (await weir.topologies.get(n)) as unknown as Row;
    case 'User':
      return (await weir.user(s)) as unknown as Row;
    case 'Node':
      return (await weir.node(s)) as unknown as Row;
    case 'Group':
      return (await weir.consumerGroup(s)) as unknown as Row;
  }
}

export async function findRecord(weir: WeirClient, kind: KindInfo, id: string | number): Promise<Row | undefined> {
  try {
    return await getRecord(weir, kind, id);
  } catch (err) {
    if (err instanceof WeirApiError && err.status === 404) return undefined;
    throw err;
  }
}

/** Deletes a record; `note` is the change note of the version a rule, task, pipeline or topology stores. */
export async function deleteRecord(
  weir: WeirClient,
  kind: KindInfo,
  id: string | number,
  note?: string,
): Promise<void> {
  const s = String(id);
  const n = Number(id);
  switch (kind.kind) {
    case 'Topic':
      return weir.deleteTopic(s);
    case 'Lookup':
      return weir.deleteLookup(s);
    case 'Rule':
      return weir.rules.delete(s, note);
    case 'Task':
      return weir.tasks.delete(n, note);
    case 'Pipeline':
      return weir.pipelines.delete(n, note);
    case 'Topology':
      return weir.topologies.delete(n, note);
    case 'User':
      return weir.deleteUser(s);
    case 'Node':
      return weir.deleteNode(s);
    case 'Group':
      return weir.deleteConsumerGroup(s);
  }
}

/** Ids as the API wants them: integers for tasks, pipelines and topologies. */
export function parseId(kind: KindInfo, text: string): string | number {
  if (!kind.numericId) return text;
  if (!/^\d+$/.test(text)) return Number.NaN;
  return Number(text);
}
