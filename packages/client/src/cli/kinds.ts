import { configKinds, lookupKind, type KindInfo as ResourceKindInfo } from '@weir/contract';

/** The kinds weirctl knows: what `get`, `describe`, `delete` and manifests (`kind:`) name. */
export interface KindInfo {
  /** As written in a manifest's `kind`. */
  readonly kind: 'Topic' | 'Lookup' | 'Rule' | 'Task' | 'Pipeline' | 'Topology' | 'User' | 'Node' | 'Group';
  /** As written on the command line (`weirctl get rules`). */
  readonly plural: string;
  readonly names: readonly string[];
  /** The record's id field and whether the API wants it as an integer. */
  readonly idField: string;
  readonly numericId: boolean;
  /** Whether `apply`, `export` and `import` handle it. */
  readonly manifest: boolean;
}

/** A resource kind of the API's registry (@weir/contract) as weirctl names it. */
function resource(kind: KindInfo['kind'], info: ResourceKindInfo): KindInfo {
  return {
    kind,
    plural: info.path,
    names: [info.names.one, info.names.many],
    idField: info.idField,
    numericId: info.idType === 'integer',
    manifest: true,
  };
}

/** In the order `apply` writes them: what a later kind refers to exists first. */
export const kinds: readonly KindInfo[] = [
  { kind: 'Topic', plural: 'topics', names: ['topic', 'topics'], idField: 'name', numericId: false, manifest: true },
  resource('Lookup', lookupKind),
  resource('Rule', configKinds.rules),
  resource('Task', configKinds.tasks),
  resource('Pipeline', configKinds.pipelines),
  resource('Topology', configKinds.topologies),
  { kind: 'User', plural: 'users', names: ['user', 'users'], idField: 'username', numericId: false, manifest: false },
  { kind: 'Node', plural: 'nodes', names: ['node', 'nodes'], idField: 'uuid', numericId: false, manifest: false },
  {
    kind: 'Group',
    plural: 'groups',
    names: ['group', 'groups', 'consumer-group', 'consumer-groups', 'cg'],
    idField: 'id',
    numericId: false,
    manifest: false,
  },
];

export function kindByName(name: string): KindInfo | undefined {
  const n = name.toLowerCase();
  return kinds.find((k) => k.names.includes(n) || k.kind.toLowerCase() === n);
}

export const kindNames = kinds.map((k) => k.plural);

/** The kinds that keep versions (`history`, `diff`, `rollback`; docs/detection-as-code.md, "Versions"). */
export const versionedKinds = ['rules', 'tasks', 'pipelines', 'topologies'] as const;
