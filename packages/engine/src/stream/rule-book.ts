import {
  compile,
  type CompiledPdl,
  type CorrelationStateStore,
  type LookupResolver,
  type LookupTable,
} from '@weir/pdl';
import type { Lookup } from '../resources/lookup.ts';
import type { StoredRule } from '../resources/rule.ts';
import { ruleFields } from '../tasks/rule-alert.ts';
import type { RuleEntry, RuleSource } from '../tasks/index.ts';

export type CompiledRule = RuleEntry & { readonly compiled: CompiledPdl };

/**
 * The compiled rules, by id: the one place a stored rule becomes what APPLY_RULES evaluates, for
 * the stream engine (`update`: every rule of a snapshot, compiled at once, swapped as a whole) and
 * for the test endpoints (`readFrom`: rules read and compiled on first use, so a test request pays
 * only for the rules its task lists). Compiled rules are reused while their PDL is unchanged; a rule
 * that does not compile is left out (APPLY_RULES counts it as missing) and listed in `broken`.
 */
export class RuleBook implements RuleSource {
  #entries = new Map<string, CompiledRule | undefined>();
  #programs = new Map<string, { pdl: string; compiled: CompiledPdl }>();
  #find: ((id: string) => StoredRule | undefined) | undefined;
  #lookups: LookupResolver | undefined;
  /** Rules whose PDL no longer compiles (e.g. a lookup they use was deleted), with the reason. */
  readonly broken = new Map<string, string>();
  #version = 0;
  readonly #stateStore: CorrelationStateStore | undefined;

  /** `stateStore`: where the correlation rules keep their state (the engine's partitioned store); default one in-memory store per rule. */
  constructor(stateStore?: CorrelationStateStore) {
    this.#stateStore = stateStore;
  }

  get(id: string): RuleEntry | undefined {
    if (this.#find !== undefined && !this.#entries.has(id)) {
      const rule = this.#find(id);
      this.#entries.set(id, rule && this.#compile(rule, this.#programs));
    }
    return this.#entries.get(id);
  }

  /**
   * Why APPLY_RULES would skip a listed rule, for the test endpoints ("rule `failed` does not exist");
   * undefined when the rule runs.
   */
  skipReason(id: string): string | undefined {
    const entry = this.get(id);
    if (entry?.enabled === true) return undefined;
    if (entry !== undefined) return `rule \`${id}\` is disabled`;
    const broken = this.broken.get(id);
    return broken === undefined ? `rule \`${id}\` does not exist` : `rule \`${id}\` does not compile: ${broken}`;
  }

  /** Changes on every update (RuleSource.version: APPLY_RULES then resolves its rules again). */
  get version(): number {
    return this.#version;
  }

  /** Every rule of a snapshot, compiled now (the stream engine). */
  update(rules: readonly StoredRule[], lookups: LookupResolver): void {
    const previous = this.#programs;
    this.#programs = new Map();
    this.#entries = new Map();
    this.#find = undefined;
    this.#lookups = lookups;
    this.broken.clear();
    for (const rule of rules) {
      const entry = this.#compile(rule, previous);
      if (entry !== undefined) this.#entries.set(rule.id, entry);
    }
    this.#version++;
  }

  /** Rules read with `find` and compiled when first asked for (the test endpoints, on the stored rules). */
  readFrom(find: (id: string) => StoredRule | undefined, lookups: LookupResolver): void {
    this.#programs = new Map();
    this.#entries = new Map();
    this.#find = find;
    this.#lookups = lookups;
    this.broken.clear();
    this.#version++;
  }

  /** The entry of one rule, its PDL compiled (or taken from `previous` when unchanged); undefined when it does not compile. */
  #compile(
    rule: StoredRule,
    previous: ReadonlyMap<string, { pdl: string; compiled: CompiledPdl }>,
  ): CompiledRule | undefined {
    let program = previous.get(rule.id);
    if (!program || program.pdl !== rule.pdl) {
      try {
        program = {
          pdl: rule.pdl,
          compiled: compile(rule.pdl, {
            lookups: this.#lookups,
            stateId: `rule:${rule.id}`,
            ...(this.#stateStore ? { stateStore: this.#stateStore } : {}),
          }),
        };
      } catch (err) {
        this.broken.set(rule.id, (err as Error).message);
        return undefined;
      }
    }
    this.#programs.set(rule.id, program);
    return { ...ruleFields(rule), enabled: rule.enabled !== false, compiled: program.compiled };
  }
}

/**
 * Lookup tables by id. Replaced only when the lookups changed (the engine sends them only then), so
 * the PDL indexes built on a table survive other configuration changes.
 */
export class LookupBook implements LookupResolver {
  #tables = new Map<string, LookupTable>();
  #version = 0;

  get(id: string): LookupTable | undefined {
    return this.#tables.get(id);
  }

  update(lookups: readonly Lookup[]): void {
    const next = new Map<string, LookupTable>();
    this.#version++;
    for (const lookup of lookups) next.set(lookup.id, { version: this.#version, rows: lookup.content });
    this.#tables = next;
  }
}
