import type { StoredRule } from '@weir/contract';
import type { BacktestCatalog } from '../../src/backtests/backtest-request.ts';
import { domainError } from '../../src/core/errors.ts';

/** A catalog of the backtests' request tests: rule `fail` (versions 1 and 2), tasks, pipelines (one dangling) and topology 5. */
export const stored = {
  id: 'fail',
  name: 'Fail',
  description: '',
  pdl: 'action="fail"',
  annotations: [],
  enabled: true,
} as unknown as StoredRule;
export const tasks: Record<string, unknown> = {
  '1': { id: 1, name: 'kv', function: 'PARSE_KV', definition: {} },
  '2': { id: 2, name: 'rules', function: 'APPLY_RULES', definition: { rules: ['fail', 'other'], matchAll: true } },
  '3': { id: 3, name: 'broken', function: 'PDL_EXPRESSION', definition: { pdl: 'action=' } },
};
export const pipelines: Record<string, unknown> = {
  '1': { id: 1, name: 'p', description: '', tasks: [1, 2] },
  '2': { id: 2, name: 'broken', description: '', tasks: [3] },
  '3': { id: 3, name: 'dangling', description: '', tasks: [8] },
};
export const pipelineVersions: unknown[] = [
  { id: 1, name: 'p', description: '', tasks: [2] },
  pipelines['1'],
  undefined,
];
export const topology = {
  id: 5,
  name: 't',
  description: '',
  pipelines: [1],
  enabled: true,
  group: 'default',
  input: {
    name: 'logins',
    keySerde: 'org.apache.kafka.common.serialization.Serdes$StringSerde',
    valueSerde: 'org.apache.kafka.common.serialization.Serdes$StringSerde',
  },
  output: [],
};
export const catalog: BacktestCatalog = {
  version: (collection, id, v) => {
    if (collection === 'rules' && id === 'fail' && v <= 2) return v === 1 ? stored : undefined;
    if (collection === 'pipelines' && id === '1' && v <= pipelineVersions.length) return pipelineVersions[v - 1];
    throw domainError('VERSION_MISSING', { one: collection.replace(/s$/, ''), many: collection }, id, v, 3);
  },
  current: <T>(collection: string, id: string) =>
    (collection === 'rules'
      ? id === 'fail'
        ? stored
        : undefined
      : collection === 'tasks'
        ? tasks[id]
        : collection === 'pipelines'
          ? pipelines[id]
          : id === '5'
            ? topology
            : undefined) as T | undefined,
  rules: () => [stored],
  lookups: { get: () => undefined },
};
export const source = { topic: 'logins', from: 0, to: 1 };
