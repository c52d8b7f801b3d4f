import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  consumed,
  danglingReferences,
  engineWarnings,
  initialized,
  noContent,
  node,
  serdeConfig,
  sigmaImport,
  tokenPair,
  topic,
  topicCreated,
  topicResults,
  user,
  type BrokerTopic,
  type ConsumeRead,
  type DanglingReferences,
  type EngineWarning,
  type Node,
  type SigmaImportResult,
  type User,
} from '../src/responses.ts';
import { serdeConfiguration } from '../src/serdes.ts';
import { violationsOf } from './helpers/ajv.ts';

// Samples typed with the contract's types: what the type allows, the route's schema lets through.
const ada: User = { username: 'ada', name: 'Ada', email: 'ada@example.com', roles: [{ id: 1, name: 'admin' }] };
const aNode: Node = {
  uuid: '6f1c',
  host: 'weir-1',
  rest: 'https://weir-1:8443',
  group: 'default',
  state: 'RUNNING',
  lastSeen: '2026-01-01T00:00:00.000Z',
  version: '0.1.0',
  alive: true,
};
const events: BrokerTopic = {
  name: 'events',
  numberOfPartitions: 3,
  replicationFactor: 1,
  options: { 'cleanup.policy': 'delete' },
};
const read: ConsumeRead = {
  status: 'RUNNING',
  messages: [{ key: null, value: { a: 1 }, partition: 0, offset: 7, timestamp: 1, headers: { h: 'v' } }],
};

test('the typed samples of the answers match the schemas the routes declare', () => {
  assert.deepEqual(violationsOf(user)(ada), []);
  assert.deepEqual(violationsOf(node)(aNode), []);
  assert.deepEqual(violationsOf(topic)(events), []);
  assert.deepEqual(violationsOf(consumed)(read), []);
  assert.deepEqual(violationsOf(initialized)({ initialized: false }), []);
  assert.deepEqual(violationsOf(tokenPair)({ access_token: 'a', refresh_token: 'r' }), []);
  assert.deepEqual(violationsOf(serdeConfig)(serdeConfiguration), []);
  assert.deepEqual(violationsOf(noContent)(null), []);
  const warning: EngineWarning = {
    kind: 'RECORDS_NEAR_RETENTION',
    topic: 'events',
    topologies: [1],
    message: 'm',
    fix: 'f',
    since: '2026-01-01T00:00:00.000Z',
  };
  assert.deepEqual(violationsOf(engineWarnings)({ warnings: [warning] }), []);
  const imported: SigmaImportResult = {
    dryRun: true,
    mapping: 'default',
    converted: 1,
    failed: 0,
    stored: 0,
    results: [{ document: 0, status: 'converted', id: 'r', warnings: [] }],
  };
  assert.deepEqual(violationsOf(sigmaImport)(imported), []);
  const dangling: DanglingReferences = {
    count: 1,
    topicsChecked: true,
    references: [
      {
        from: { kind: 'pipeline', id: 2, name: 'p' },
        to: { kind: 'task', id: 9 },
        field: 'tasks[0]',
        message: 'task 9 does not exist',
      },
    ],
  };
  assert.deepEqual(violationsOf(danglingReferences)(dangling), []);
});

test('an answer is described, never cut: fields the schema does not name pass', () => {
  assert.deepEqual(violationsOf(user)({ ...ada, lastLogin: 'today', roles: [{ id: 2, name: 'user', x: 1 }] }), []);
  assert.deepEqual(violationsOf(node)({ ...aNode, threads: 4 }), []);
});

test('an answer of the wrong type or value is refused', () => {
  assert.deepEqual(violationsOf(user)({ ...ada, roles: [{ id: '1', name: 'root' }] }), [
    '/roles/0/id type',
    '/roles/0/name enum',
  ]);
  assert.deepEqual(violationsOf(node)({ ...aNode, alive: 'yes' }), ['/alive type']);
  assert.deepEqual(violationsOf(topic)({ ...events, options: { 'retention.ms': 1000 } }), [
    '/options/retention.ms type',
  ]);
  assert.deepEqual(violationsOf(noContent)({}), ['/ type']);
  assert.deepEqual(violationsOf(topicResults)([{ name: 'a', result: 'ok' }]), ['/0/result enum']);
});

test('POST /api/topics answers the created topic, or (earlier form) one result per topic', () => {
  const validate = violationsOf(topicCreated);
  assert.deepEqual(validate(events), []);
  assert.deepEqual(
    validate([
      { result: 'success', name: 'a' },
      { result: 'failure', message: "Topic 'b' already exists." },
    ]),
    [],
  );
  assert.notDeepEqual(validate([{ result: 'maybe' }]), []);
});
