import { configKinds, lookupKind } from '@weir/contract';
import { api } from '../lib/api.ts';
import { errorText } from '../lib/errors.ts';
import { capitalised } from '../lib/kind-labels.ts';

/** One thing the Ctrl+K palette can jump to. */
export interface PaletteEntry {
  readonly kind: string;
  readonly id: string;
  readonly name: string;
  readonly to: string;
}

const enc = encodeURIComponent;

/** Where each kind of resource opens (one place, so a page that moves changes one line). */
export const resourcePath = {
  rule: (id: string) => `/rules/${enc(id)}`,
  topic: (name: string) => `/topics?search=${enc(name)}`,
  task: (id: number) => `/tasks/${id}`,
  pipeline: (id: number) => `/pipelines/${id}`,
  topology: (id: number) => `/topologies/${id}`,
  lookup: (id: string) => `/lookups/${enc(id)}`,
  user: (username: string) => `/users/${enc(username)}`,
};

const kinds = ['Rules', 'Topics', 'Tasks', 'Pipelines', 'Topologies', 'Lookups', 'Users'] as const;

/**
 * Each group's one-record name, the kinds registry's (`topology`, not "Topologie"); topics and users
 * are not configuration kinds, so they are named here.
 */
const singular: Record<string, string> = {
  Rules: configKinds.rules.names.one,
  Topics: 'topic',
  Tasks: configKinds.tasks.names.one,
  Pipelines: configKinds.pipelines.names.one,
  Topologies: configKinds.topologies.names.one,
  Lookups: lookupKind.names.one,
  Users: 'user',
};

/** What an entry's line under its name says: its kind (`Topology`), and its id when the name is not the id. */
export function entryDescription(e: Pick<PaletteEntry, 'kind' | 'id' | 'name'>): string {
  const kind = capitalised(singular[e.kind] ?? e.kind);
  return e.name === e.id ? kind : `${kind} ${e.id}`;
}

/**
 * Every resource the signed-in user may read, fetched through the SDK when the palette opens (a
 * kind the role may not read, or that fails, is left out and named in `problems`, never hidden
 * silently).
 */
export async function loadPaletteEntries(
  isAdmin: boolean,
  me: string | undefined,
): Promise<{ entries: PaletteEntry[]; problems: string[] }> {
  const loaders: Record<(typeof kinds)[number], () => Promise<PaletteEntry[]>> = {
    Rules: async () =>
      (await api.rules.list()).map((r) => ({ kind: 'Rules', id: r.id, name: r.name, to: resourcePath.rule(r.id) })),
    Topics: async () =>
      (await api.topics()).map((t) => ({ kind: 'Topics', id: t, name: t, to: resourcePath.topic(t) })),
    Tasks: async () =>
      (await api.tasks.list()).map((t) => ({
        kind: 'Tasks',
        id: String(t.id),
        name: t.name,
        to: resourcePath.task(t.id),
      })),
    Pipelines: async () =>
      (await api.pipelines.list()).map((p) => ({
        kind: 'Pipelines',
        id: String(p.id),
        name: p.name,
        to: resourcePath.pipeline(p.id),
      })),
    Topologies: async () =>
      (await api.topologies.list()).map((t) => ({
        kind: 'Topologies',
        id: String(t.id),
        name: t.name,
        to: resourcePath.topology(t.id),
      })),
    Lookups: async () =>
      (await api.lookups()).map((l) => ({ kind: 'Lookups', id: l.id, name: l.id, to: resourcePath.lookup(l.id) })),
    Users: async () =>
      isAdmin
        ? (await api.users()).map((u) => ({
            kind: 'Users',
            id: u.username,
            name: u.name || u.username,
            to: resourcePath.user(u.username),
          }))
        : me
          ? [{ kind: 'Users', id: me, name: `${me} (your profile)`, to: '/profile' }]
          : [],
  };
  const settled = await Promise.allSettled(kinds.map((k) => loaders[k]()));
  const entries: PaletteEntry[] = [];
  const problems: string[] = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') entries.push(...s.value);
    else problems.push(`${kinds[i]}: ${errorText(s.reason)}`);
  });
  return { entries, problems };
}

/** One action of the palette (the shape of Mantine Spotlight's actions; kept free of React for node tests). */
export interface PaletteAction {
  id: string;
  label: string;
  description: string;
  keywords?: string[];
  onClick: () => void;
}

/** The palette's actions: every page, then every resource grouped by kind (label name, keywords id). */
export function paletteActions(
  pages: readonly { readonly path: string; readonly label: string }[],
  entries: readonly PaletteEntry[],
  navigate: (to: string) => void,
): { group: string; actions: PaletteAction[] }[] {
  const groups = new Map<string, PaletteAction[]>();
  for (const e of entries) {
    let g = groups.get(e.kind);
    if (!g) groups.set(e.kind, (g = []));
    g.push({
      id: `${e.kind}:${e.id}`,
      label: e.name,
      description: entryDescription(e),
      keywords: [e.id],
      onClick: () => navigate(e.to),
    });
  }
  return [
    {
      group: 'Pages',
      actions: pages.map((p) => ({
        id: `page:${p.path}`,
        label: p.label,
        description: `Go to ${p.label}`,
        onClick: () => navigate(p.path),
      })),
    },
    ...[...groups].map(([group, actions]) => ({ group, actions })),
  ];
}
