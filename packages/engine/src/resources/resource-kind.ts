import type { LookupResolver } from '@weir/pdl';
import type { Collection } from '../store/config-store.ts';

/** What a configuration record always has; the rest depends on the kind. */
export interface ConfigRecord {
  readonly id: number | string;
  readonly name: string;
  readonly [field: string]: unknown;
}

/** What a kind-specific check may consult (the store, for references such as lookup ids). */
export interface CheckContext {
  /** The stored lookups, as PDL and the tasks resolve them (undefined for an id no lookup has). */
  readonly lookups: LookupResolver;
}

/**
 * One kind of configuration resource (spec: Tasks, pipelines, topologies, rules): the only thing
 * that differs between the four is this description; the CRUD logic is ConfigResource.
 */
export interface ResourceKind {
  /** URL segment (`/api/<path>`, `/api/bulk/<path>`) and store collection. */
  readonly path: 'tasks' | 'pipelines' | 'topologies' | 'rules';
  readonly collection: Collection;
  /** Names used in the spec's debugMessages. */
  readonly names: { readonly one: string; readonly many: string };
  readonly idType: 'integer' | 'string';
  /** What a valid id looks like, for error messages. */
  readonly idRule: string;
  readonly schema: object;
  /** Earlier forms → latest form, plus defaults; runs before validation. */
  latest(record: Record<string, unknown>): Record<string, unknown>;
  /** Checks the schema cannot express; returns violations like the schema's. */
  check?(record: ConfigRecord, ctx: CheckContext): string[];
}

/** Fields every kind has. */
export const nameField = { type: 'string', minLength: 1, maxLength: 256 } as const;
export const descriptionField = { type: 'string', maxLength: 16384 } as const;

/** A record as submitted, before it is in its latest form. */
export type SubmittedRecord = Record<string, unknown>;
