/**
 * The SDK's public types, pinned. `npm run typecheck` compiles this file: a change of a type the
 * SDK exports (a field added, removed, made optional, retyped) fails it until the pin is changed
 * too, on purpose. The types come from @weir/contract, derived from the server's schemas.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as contract from '@weir/contract';
import {
  taskDefaults,
  taskSchemas,
  type WeirApiError,
  type BrokerTopic,
  type ConsumedMessage,
  type ConsumeRead,
  type ConsumeRequest,
  type EngineState,
  type ErrorBody,
  type Lookup,
  type MetricsSummary,
  type Node,
  type Pipeline,
  type ProduceRequest,
  type ResourceApi,
  type Rule,
  type SerdeConfiguration,
  type SigmaImportResult,
  type Task,
  type TaskFunctionName,
  type Tokens,
  type TopicEndpoint,
  type TopicResult,
  type Topology,
  type User,
  type UserInput,
  type WeirClient,
} from '@weir/client';

/** True when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function pin<T extends true>(): T | undefined {
  return undefined;
}

pin<
  Equal<
    Node,
    {
      uuid: string;
      host: string;
      rest: string;
      group: string;
      state: string;
      lastSeen: string;
      version: string;
      alive: boolean;
    }
  >
>();
pin<
  Equal<
    ErrorBody,
    {
      readonly status: string;
      readonly message: string;
      readonly debugMessage: string;
      readonly errors?: readonly (
        string | { readonly index: number; readonly id?: unknown; readonly errors: readonly string[] }
      )[];
    }
  >
>();
pin<Equal<User, { username: string; name: string; email: string; roles: { id: number; name: 'admin' | 'user' }[] }>>();
pin<
  Equal<
    UserInput,
    {
      username: string;
      password: string;
      name?: string;
      email?: string;
      roles?: { name: 'admin' | 'user'; id?: number }[];
    }
  >
>();
pin<Equal<Tokens, { access_token: string; refresh_token: string }>>();
pin<
  Equal<
    Rule,
    {
      id: string;
      name: string;
      pdl: string;
      enabled: boolean;
      description?: string;
      annotations?: string[];
      severity?: 'informational' | 'low' | 'medium' | 'high' | 'critical';
      suppression?: { fields: string[]; window: string };
      datamodel?: string;
    }
  >
>();
pin<Equal<Pipeline, { id: number; name: string; tasks: number[]; description?: string }>>();
pin<Equal<TopicEndpoint, { name: string; keySerde: string; valueSerde: string }>>();
pin<
  Equal<
    Topology,
    {
      id: number;
      name: string;
      pipelines: number[];
      enabled: boolean;
      group: string;
      input: TopicEndpoint;
      output: TopicEndpoint[];
      description?: string;
    }
  >
>();
pin<Equal<TaskFunctionName, keyof typeof taskSchemas>>();
pin<Equal<Task['function'], TaskFunctionName>>();
pin<Equal<Task['definition'], Record<string, unknown>>>();
pin<Equal<Pick<Task, 'id' | 'name' | 'description'>, { id: number; name: string; description?: string }>>();
pin<Equal<Lookup, { id: string; content: Record<string, unknown>[] }>>();
pin<Equal<SerdeConfiguration, { serde: string[]; serializer: string[]; deserializer: string[] }>>();
pin<Equal<EngineState, { states: string[] }>>();
pin<
  Equal<
    BrokerTopic,
    { name: string; numberOfPartitions: number; replicationFactor: number; options?: Record<string, string> }
  >
>();
pin<Equal<TopicResult, { result: 'success' | 'failure'; name?: string; message?: string }>>();
pin<
  Equal<
    ProduceRequest,
    {
      messages: { value: unknown; key?: unknown; headers?: Record<string, string> }[];
      keySerializer?: string;
      valueSerializer?: string;
    }
  >
>();
pin<
  Equal<
    ConsumeRequest,
    {
      keyDeserializer?: string;
      valueDeserializer?: string;
      maxEvents?: number;
      maxTimeoutSeconds?: number;
      offset?: 'earliest' | 'latest';
      startOffset?: number;
      startTimestamp?: number;
      partition?: number;
      untilEnd?: boolean;
    }
  >
>();
pin<
  Equal<
    ConsumedMessage,
    {
      key: unknown;
      value: unknown;
      partition?: number;
      offset?: number;
      timestamp?: number;
      headers?: Record<string, string>;
    }
  >
>();
pin<Equal<ConsumeRead, { status: string; messages: ConsumedMessage[] }>>();
pin<Equal<MetricsSummary['workers'], { worker: string; state: string }[]>>();
pin<Equal<MetricsSummary['lag'], { topic: string; partition: string; value: number }[]>>();
pin<Equal<MetricsSummary['recordsOut'], { topology: string; topic: string; value: number }[]>>();
pin<Equal<Pick<MetricsSummary, 'node' | 'time'>, { node: string; time: number }>>();
pin<
  Equal<
    Omit<SigmaImportResult, 'results'>,
    { dryRun: boolean; mapping: string; converted: number; failed: number; stored: number }
  >
>();
pin<Equal<SigmaImportResult['results'][number]['status'], 'converted' | 'error' | 'filter'>>();

// The methods give the contract's types.
pin<Equal<ReturnType<WeirClient['nodes']>, Promise<Node[]>>>();
pin<Equal<ReturnType<WeirClient['users']>, Promise<User[]>>>();
pin<Equal<Parameters<WeirClient['createUser']>, [user: UserInput]>>();
pin<Equal<WeirClient['rules'], ResourceApi<Rule, string>>>();
pin<Equal<WeirClient['tasks'], ResourceApi<Task, number>>>();
pin<Equal<WeirClient['pipelines'], ResourceApi<Pipeline, number>>>();
pin<Equal<WeirClient['topologies'], ResourceApi<Topology, number>>>();
pin<Equal<ReturnType<WeirClient['lookups']>, Promise<Lookup[]>>>();
pin<Equal<ReturnType<WeirClient['topic']>, Promise<BrokerTopic>>>();
pin<Equal<Parameters<WeirClient['consume']>, [name: string, request?: ConsumeRequest]>>();
pin<Equal<WeirApiError['body'], ErrorBody | undefined>>();
pin<Equal<WeirApiError['fieldErrors'], string[]>>();

test('the task schemas and defaults the SDK exports are the contract objects the server validates with', () => {
  assert.equal(taskSchemas, contract.taskFunctions);
  assert.equal(taskDefaults, contract.taskDefaults);
  assert.deepEqual(Object.keys(taskSchemas), contract.taskFunctionNames);
});
