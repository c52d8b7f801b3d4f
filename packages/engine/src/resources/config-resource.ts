import { integerIdKey, type ElementViolations } from '@weir/contract';
import { isObject } from '@weir/pdl';
import { domainError, withDetails } from '../core/errors.ts';
import type { ConfigStore } from '../store/config-store.ts';
import type { CheckContext, ConfigRecord, ResourceKind } from './resource-kind.ts';
import { compileValidator, type Validator } from '../validation/json-schema.ts';
import { SerialQueue } from '../core/serial-queue.ts';
import { SerialisedListCache, type SerialisedList } from './serialised-list.ts';
import { storedLookups } from '../rules/lookup-tables.ts';
import { RecordVersions, versionEntry, type Change } from './record-versions.ts';

type Prepared =
  | { readonly record: ConfigRecord; readonly errors?: undefined }
  | { readonly record?: undefined; readonly errors: string[] };

/**
 * The CRUD logic shared by tasks, pipelines, topologies and rules (spec: Tasks, pipelines,
 * topologies, rules), parameterised by a ResourceKind. Records are normalised to the latest form
 * and validated before anything is stored; writes of one node are serialised so that the
 * exists/unique checks and the write that follows them cannot interleave. Every write stores a
 * version of each record it changes, with the write (docs/detection-as-code.md, "Versions").
 */
export class ConfigResource {
  readonly kind: ResourceKind;
  readonly #store: ConfigStore;
  readonly #validate: Validator;
  readonly #checks: CheckContext;
  readonly #writes = new SerialQueue();
  readonly #serialised: SerialisedListCache;
  readonly versions: RecordVersions;

  readonly #limit: { max: number; setting: string } | undefined;

  constructor(kind: ResourceKind, store: ConfigStore, limit?: { max: number; setting: string }) {
    this.kind = kind;
    this.#limit = limit;
    this.#store = store;
    this.#validate = compileValidator(kind.schema);
    this.#checks = { lookups: storedLookups(store) };
    this.#serialised = new SerialisedListCache(store, kind.collection, () => this.list());
    this.versions = new RecordVersions(kind, store);
  }

  /** `list()` as JSON bytes with its entity tag, serialised once per change of the collection. */
  serialisedList(): SerialisedList {
    return this.#serialised.get();
  }

  #checkLimit(count: number): void {
    if (this.#limit && count > this.#limit.max)
      throw domainError('RECORD_LIMIT', this.kind.names, this.#limit.max, this.#limit.setting);
  }

  /** All records; integer ids in ascending order, string ids in creation order. */
  list(): ConfigRecord[] {
    const records = this.#store.list<ConfigRecord>(this.kind.collection);
    return this.kind.idType === 'integer' ? records.sort((a, b) => Number(a.id) - Number(b.id)) : records;
  }

  get(rawId: string): ConfigRecord {
    const record = this.#find(this.parseId(rawId));
    if (!record) throw domainError('RESOURCE_MISSING', this.kind.names);
    return record;
  }

  create(body: unknown, change: Change = {}): Promise<ConfigRecord> {
    return this.#exclusive(async () => {
      const record = this.#valid(body);
      if (this.#find(String(record.id))) throw domainError('RESOURCE_EXISTS', this.kind.names);
      this.#checkLimit(this.#store.list(this.kind.collection).length + 1);
      await this.#put(record, 'create', change);
      return record;
    });
  }

  /** PUT: the path names the record; a body without id takes it, a body with another id is refused. */
  update(rawId: string, body: unknown, change: Change = {}): Promise<ConfigRecord> {
    return this.#exclusive(async () => {
      const id = this.parseId(rawId);
      const input =
        isObject(body) && body.id === undefined
          ? { ...body, id: this.kind.idType === 'integer' ? Number(id) : id }
          : body;
      const record = this.#valid(input);
      if (String(record.id) !== id)
        throw domainError('RESOURCE_ID_MISMATCH', this.kind.names, rawId, String(record.id));
      if (!this.#find(id)) throw domainError('RESOURCE_UPDATE_MISSING', this.kind.names);
      await this.#put(record, 'update', change);
      return record;
    });
  }

  delete(rawId: string, change: Change = {}): Promise<void> {
    return this.#exclusive(async () => {
      const id = this.parseId(rawId);
      const versions = [versionEntry(id, 'delete', undefined, change)];
      if (!(await this.#store.delete(this.kind.collection, id, { versions })))
        throw domainError('RESOURCE_DELETE_MISSING', this.kind.names);
    });
  }

  /**
   * Stores version `version` of the record again, as a new version that names it (`rollbackOf`):
   * recreated when the record was deleted since. The version's record is checked as a write's body
   * is (a lookup it uses may be gone), and a deletion's version has no record to restore.
   */
  rollback(rawId: string, version: number, change: Change = {}): Promise<ConfigRecord> {
    return this.#exclusive(async () => {
      const id = this.parseId(rawId);
      const target = this.versions.find(id, version);
      if (target.record === undefined) throw domainError('VERSION_IS_DELETION', this.kind.names, id, version);
      const record = this.#valid(target.record);
      const exists = this.#find(id) !== undefined;
      if (!exists) this.#checkLimit(this.#store.list(this.kind.collection).length + 1);
      await this.#put(record, exists ? 'update' : 'create', { ...change, rollbackOf: version });
      return record;
    });
  }

  /**
   * Creates or updates every element, or none: all are validated first (schema, ids unique within
   * the request) and written in one atomic store write. Returns the submitted records as stored.
   * Names need not be unique (the original stored records with equal names): ids tell them apart.
   */
  bulk(body: unknown, change: Change = {}): Promise<ConfigRecord[]> {
    return this.#exclusive(async () => {
      if (!Array.isArray(body)) {
        throw withDetails(domainError('BULK_INVALID', this.kind.names), [
          { index: -1, errors: [`(body): must be a JSON array of ${this.kind.names.many}`] },
        ]);
      }
      const violations = new Map<number, { id: unknown; errors: string[] }>();
      const refuse = (index: number, id: unknown, errors: readonly string[]) => {
        const entry = violations.get(index) ?? { id, errors: [] };
        entry.errors.push(...errors);
        violations.set(index, entry);
      };
      const submitted = new Map<string, { index: number; record: ConfigRecord }>();
      body.forEach((element, index) => {
        const prepared = this.#prepare(element);
        if (prepared.errors) return refuse(index, isObject(element) ? element.id : undefined, prepared.errors);
        const key = String(prepared.record.id);
        const earlier = submitted.get(key);
        if (earlier)
          return refuse(index, prepared.record.id, [
            `id: ${key} is also the id of element ${earlier.index}; each id may appear once`,
          ]);
        submitted.set(key, { index, record: prepared.record });
      });
      const records = [...submitted.values()].map((s) => s.record);
      if (violations.size) {
        const details: ElementViolations[] = [...violations]
          .sort(([a], [b]) => a - b)
          .map(([index, v]) => ({ index, id: v.id, errors: v.errors }));
        throw withDetails(domainError('BULK_INVALID', this.kind.names), details);
      }
      if (this.#limit) {
        // The count after the write: the stored ids and the submitted ones, each once.
        const ids = new Set(this.#store.list<ConfigRecord>(this.kind.collection).map((r) => String(r.id)));
        for (const key of submitted.keys()) ids.add(key);
        this.#checkLimit(ids.size);
      }
      const time = Date.now();
      const versions = records.map((r) =>
        versionEntry(String(r.id), this.#find(String(r.id)) ? 'update' : 'create', r, change, time),
      );
      await this.#store.putMany(
        this.kind.collection,
        records.map((r) => [String(r.id), r] as const),
        { versions },
      );
      return records;
    });
  }

  /** The store key of a path id, or 400 saying what an id of this kind looks like. */
  parseId(raw: string): string {
    const key = this.kind.idType === 'string' ? (raw.length > 0 ? raw : undefined) : integerIdKey(raw);
    if (key === undefined) throw domainError('RESOURCE_ID_INVALID', this.kind.names, raw, this.kind.idRule);
    return key;
  }

  #put(record: ConfigRecord, action: 'create' | 'update', change: Change): Promise<void> {
    const id = String(record.id);
    return this.#store.put(this.kind.collection, id, record, { versions: [versionEntry(id, action, record, change)] });
  }

  #find(id: string): ConfigRecord | undefined {
    return this.#store.get<ConfigRecord>(this.kind.collection, id);
  }

  #prepare(body: unknown): Prepared {
    if (!isObject(body)) return { errors: [`(record): must be a JSON object (a ${this.kind.names.one})`] };
    const latest = this.kind.latest(body);
    const errors = this.#validate(latest);
    if (errors.length) return { errors };
    const record = latest as ConfigRecord;
    const more = this.kind.check?.(record, this.#checks) ?? [];
    return more.length ? { errors: more } : { record };
  }

  #valid(body: unknown): ConfigRecord {
    const prepared = this.#prepare(body);
    if (prepared.errors)
      throw withDetails(domainError('RESOURCE_INVALID', this.kind.names, prepared.errors.join('; ')), prepared.errors);
    return prepared.record;
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.#writes.run(work);
  }
}
