import type { ConfigStore } from '../store/config-store.ts';
import type { LookupRecord, RuleRecord } from './config-snapshot.ts';
import { LookupBook, RuleBook } from './topology-plan.ts';

/** Rules and lookups as stored now, for the test endpoints (the engine gets them by snapshot). */
export function currentRulesAndLookups(store: ConfigStore): { rules: RuleBook; lookups: LookupBook } {
  const lookups = new LookupBook();
  lookups.update(store.list<LookupRecord>('lookups'));
  const rules = new RuleBook();
  rules.update(store.list<RuleRecord>('rules'), lookups);
  return { rules, lookups };
}
