import type { StoredRule } from '@weir/contract';
import {
  compile,
  InMemoryCorrelationStateStore,
  type CompiledPdl,
  type CorrelationStateStore,
  type LookupResolver,
} from '@weir/pdl';
import { RuleSuppression } from './rule-suppression.ts';

/**
 * What APPLY_RULES evaluates: the rule's compiled PDL (never re-parsed per event). When `ast` is
 * there (a CompiledPdl has it) it must be the program `run` evaluates: APPLY_RULES indexes the
 * rule by the equalities it requires (RuleIndex of @weir/pdl) and skips it for events that lack them.
 */
export type RuleMatcher = Pick<CompiledPdl, 'hasCorrelation' | 'run' | 'feed'> &
  Partial<Pick<CompiledPdl, 'ast' | 'route' | 'resume' | 'advanceBy'>>;

export interface RuleEntry {
  readonly id: string;
  readonly name: string;
  readonly annotations: readonly string[];
  /** As stored (optional): what an alert's severity is read from (severityOf of @weir/contract). */
  readonly severity?: string;
  /** What the original's `padasRule` carries besides id, name and annotations (weir.output.names=original). */
  readonly description?: string;
  readonly pdl?: string;
  readonly datamodel?: string;
  readonly enabled: boolean;
  readonly compiled: RuleMatcher;
  /** The rule's alert suppression, when it has one (rule-suppression.ts). */
  readonly suppression?: RuleSuppression;
}

/**
 * Rules by id, asked on every record so that a rule created, changed, disabled or deleted after
 * the task was compiled takes effect at once (tasks.md, last paragraph).
 */
export interface RuleSource {
  get(id: string): RuleEntry | undefined;
  /**
   * Optional: a number that changes whenever `get` may answer differently (a new entry object, a
   * rule added or removed). With it, APPLY_RULES resolves its rules again only when it changed;
   * without it, on every record.
   */
  readonly version?: number;
}

/** The rule fields an alert needs (rule-alert.ts), from a stored rule. */
function ruleFields(rule: {
  id: string;
  name: string;
  annotations?: readonly string[];
  severity?: string;
  description?: string;
  pdl?: string;
  datamodel?: string;
}) {
  return {
    id: rule.id,
    name: rule.name,
    annotations: rule.annotations ?? [],
    ...(rule.severity === undefined ? {} : { severity: rule.severity }),
    description: rule.description,
    pdl: rule.pdl,
    datamodel: rule.datamodel,
  };
}

export type CompiledRule = RuleEntry & { readonly compiled: CompiledPdl };

/**
 * The compiled rules, by id: the one place a stored rule becomes what APPLY_RULES evaluates, for
 * the stream engine (`update`: every rule of a snapshot, compiled at once, swapped as a whole) and
 * for the test endpoints (`readFrom`: rules read and compiled on first use, so a test request pays
 * only for the rules its task lists; `compiled`: the one rule a rule test runs), and for the
 * references check (the lookups a rule asks for). Compiled rules are reused while their PDL is
 * unchanged; a rule that does not compile is left out (APPLY_RULES counts it as missing) and
 * listed in `broken`.
 */
export class RuleBook implements RuleSource {
  #entries = new Map<string, CompiledRule | undefined>();
  #programs = new Map<string, { pdl: string; compiled: CompiledPdl }>();
  #find: ((id: string) => StoredRule | undefined) | undefined;
  #lookups: LookupResolver | undefined;
  /** Rules whose PDL no longer compiles (e.g. a lookup they use was deleted), with the reason. */
  readonly broken = new Map<string, string>();
  /** What compiling each rule of `broken` threw (`compiled` throws it again). */
  readonly #errors = new Map<string, unknown>();
  #version = 0;
  readonly #stateStore: CorrelationStateStore | undefined;

  /** `stateStore`: where the correlation rules keep their state (the engine's partitioned store); default one in-memory store per rule. */
  constructor(stateStore?: CorrelationStateStore) {
    this.#stateStore = stateStore;
  }

  get(id: string): CompiledRule | undefined {
    if (this.#find !== undefined && !this.#entries.has(id)) {
      const rule = this.#find(id);
      this.#entries.set(id, rule && this.#compile(rule, this.#programs));
    }
    return this.#entries.get(id);
  }

  /**
   * Rule `id` compiled, whether enabled or not (the rule test endpoint runs it as it is stored):
   * undefined when there is no such rule; for a rule that does not compile, what its compile threw.
   */
  compiled(id: string): CompiledPdl | undefined {
    const entry = this.get(id);
    if (entry !== undefined) return entry.compiled;
    if (this.#errors.has(id)) throw this.#errors.get(id);
    return undefined;
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
    this.#errors.clear();
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
    this.#errors.clear();
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
        this.#errors.set(rule.id, err);
        return undefined;
      }
    }
    this.#programs.set(rule.id, program);
    const entry = { ...ruleFields(rule), enabled: rule.enabled !== false, compiled: program.compiled };
    if (rule.suppression === undefined) return entry;
    try {
      const store = this.#stateStore ?? new InMemoryCorrelationStateStore();
      return { ...entry, suppression: new RuleSuppression(rule.id, rule.suppression, store) };
    } catch (err) {
      // the schema refuses such a window: only a record that bypassed it gets here
      this.broken.set(rule.id, `suppression: ${(err as Error).message}`);
      this.#errors.set(rule.id, err);
      return undefined;
    }
  }
}
