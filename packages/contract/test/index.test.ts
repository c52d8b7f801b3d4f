import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as contract from '@weir/contract';
import * as errors from '../src/errors.ts';
import * as resources from '../src/resources.ts';
import * as responses from '../src/responses.ts';

/** The values the engine, the SDK, weirctl and the UI import from '@weir/contract' (their sources, today). */
const used = [
  'auditPage',
  'auditQuery',
  'configKinds',
  'consumeBody',
  'consumeDefaults',
  'consumeQuery',
  'consumed',
  'consumerCreated',
  'danglingReferences',
  'defaultSerde',
  'engineStates',
  'engineWarnings',
  'errorCatalog',
  'errorStatus',
  'eventStream',
  'fixedHeaders',
  'hstsHeader',
  'idParams',
  'initialized',
  'integerIdKey',
  'isStringId',
  'listOf',
  'loginBody',
  'lookup',
  'lookupId',
  'lookupKind',
  'lookupUpload',
  'maxTopicsPerRequest',
  'metricsSummary',
  'newUserBody',
  'noContent',
  'node',
  'produceBody',
  'produced',
  'refreshRefused',
  'resourceKindInfos',
  'responseShape',
  'roleIds',
  'roleNames',
  'serdeConfig',
  'serdeTypes',
  'sigmaImport',
  'stringIdRule',
  'syntaxResult',
  'tailQuery',
  'taskDefaults',
  'taskFunctionNames',
  'taskFunctions',
  'taskTestResult',
  'testResult',
  'tokenPair',
  'topic',
  'topicCreated',
  'topicListSchema',
  'topicNameProblem',
  'topicNameSchema',
  'topicNames',
  'topicOrListSchema',
  'topicParams',
  'topicResults',
  'topicSpecSchema',
  'user',
  'userUpdateBody',
  'usernameParams',
];

test('the package exports every value its users import, and none of them is undefined', () => {
  const exported = contract as Record<string, unknown>;
  assert.deepEqual(
    used.filter((name) => exported[name] === undefined),
    [],
  );
});

test('the public surface re-exports the modules as they are, not copies', () => {
  for (const module of [errors, resources, responses] as Record<string, unknown>[])
    for (const [name, value] of Object.entries(module))
      assert.equal((contract as Record<string, unknown>)[name], value, name);
});
