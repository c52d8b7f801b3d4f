import type { VersionDetail, VersionDiff, VersionSummary } from '@weir/contract';
import { currentActor } from '../audit/audit-context.ts';
import { domainError } from '../core/errors.ts';
import type { ConfigStore, VersionEntry, VersionRecord } from '../store/config-store.ts';
import type { ResourceKind } from './resource-kind.ts';
import { diffLines, diffRecords } from './version-diff.ts';

/** What a write says about itself beyond its body: the change note (header X-Weir-Change-Note). */
export interface Change {
  readonly note?: string;
  /** Set by a rollback: the version it restores. */
  readonly rollbackOf?: number;
}

/** The version a write stores: its author is the request's user (the audit's actor), null outside requests. */
export function versionEntry(
  id: string,
  action: VersionEntry['action'],
  record: unknown,
  change: Change,
  time = Date.now(),
): VersionEntry {
  return {
    id,
    time,
    user: currentActor()?.user ?? null,
    action,
    ...(change.note !== undefined ? { note: change.note } : {}),
    ...(change.rollbackOf !== undefined ? { rollbackOf: change.rollbackOf } : {}),
    ...(record !== undefined ? { record } : {}),
  };
}

/** A version number from the path, or 400 naming the parameter. */
export function parseVersion(param: string, raw: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw domainError('VERSION_INVALID', param, raw);
  return Number(raw);
}

function summary(v: VersionRecord): VersionSummary {
  return {
    version: v.version,
    time: new Date(v.time).toISOString(),
    user: v.user,
    action: v.action,
    ...(v.note !== undefined ? { note: v.note } : {}),
    ...(v.rollbackOf !== undefined ? { rollbackOf: v.rollbackOf } : {}),
  };
}

/**
 * The read side of a kind's versions (docs/detection-as-code.md, "Versions"): list, read one, diff
 * two. The versions of a deleted record stay readable; an id that never had a version is 404.
 */
export class RecordVersions {
  readonly #kind: ResourceKind;
  readonly #store: ConfigStore;

  constructor(kind: ResourceKind, store: ConfigStore) {
    this.#kind = kind;
    this.#store = store;
  }

  /** Oldest first. A record stored before versions were kept and unchanged since has none: []. */
  list(id: string): VersionSummary[] {
    const versions = this.#store.versions(this.#kind.collection, id);
    if (versions.length === 0 && this.#store.get(this.#kind.collection, id) === undefined)
      throw domainError('VERSION_MISSING', this.#kind.names, id, 1, 0);
    return versions.map(summary);
  }

  /** The stored version, or 404 naming the record and the versions it has. */
  find(id: string, version: number): VersionRecord {
    const versions = this.#store.versions(this.#kind.collection, id);
    const found = versions[version - 1];
    if (found === undefined) throw domainError('VERSION_MISSING', this.#kind.names, id, version, versions.length);
    return found;
  }

  get(id: string, version: number): VersionDetail {
    const found = this.find(id, version);
    return { ...summary(found), record: found.record ?? null };
  }

  /** Field by field (and for rules, the PDL line by line), from `from` to `to`. */
  diff(id: string, from: number, to: number): VersionDiff {
    const before = this.find(id, from).record;
    const after = this.find(id, to).record;
    const changes = diffRecords(before ?? null, after ?? null);
    if (this.#kind.path !== 'rules') return { from, to, changes };
    const pdl = (r: unknown) => String((r as { pdl?: unknown } | undefined)?.pdl ?? '');
    return { from, to, changes, pdl: diffLines(pdl(before), pdl(after)) };
  }
}
