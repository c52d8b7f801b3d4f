import type { LookupResolver } from '@weir/pdl';
import type { ConfigKindPath, KindInfo } from '@weir/contract';

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
 * that differs between the four is this description (its data from the contract's registry, its
 * behaviour here); the CRUD logic is ConfigResource.
 */
export interface ResourceKind extends KindInfo<ConfigKindPath> {
  readonly schema: object;
  /** Earlier forms → latest form, plus defaults; runs before validation. */
  latest(record: Record<string, unknown>): Record<string, unknown>;
  /** Checks the schema cannot express; returns violations like the schema's. */
  check?(record: ConfigRecord, ctx: CheckContext): string[];
}

/** A record as submitted, before it is in its latest form. */
export type SubmittedRecord = Record<string, unknown>;
