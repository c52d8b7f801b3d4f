import { ruleFields } from '../tasks/rule-alert.ts';
import { compile, type CompiledPdl } from '@weir/pdl';
import type { ConfigStore } from '../store/config-store.ts';
import type { RuleEntry, RuleSource } from '../tasks/index.ts';
import type { LookupRecord, RuleRecord } from './config-snapshot.ts';
import { LookupBook } from './topology-plan.ts';

/**
 * The stored lookups and rules as the test endpoints need them (the engine gets them by snapshot).
 * Rules compile on first use, so a test request pays only for the rules its task actually lists.
 */
export function storedLookups(store: ConfigStore): LookupBook {
  const lookups = new LookupBook();
  lookups.update(store.list<LookupRecord>('lookups'));
  return lookups;
}

export function storedRules(store: ConfigStore, lookups: LookupBook): RuleSource {
  const compiled = new Map<string, (RuleEntry & { compiled: CompiledPdl }) | undefined>();
  return {
    get(id) {
      if (!compiled.has(id)) {
        const rule = store.get<RuleRecord>('rules', id);
        let entry: (RuleEntry & { compiled: CompiledPdl }) | undefined;
        try {
          entry = rule && { ...ruleFields(rule), enabled: rule.enabled !== false,
            compiled: compile(rule.pdl, { lookups, stateId: `rule:${rule.id}` }) };
        } catch {
          entry = undefined; // a rule that no longer compiles is skipped, as in the engine
        }
        compiled.set(id, entry);
      }
      return compiled.get(id);
    },
  };
}
