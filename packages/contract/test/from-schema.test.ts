import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FromSchema } from '../src/from-schema.ts';
import { violationsOf } from './helpers/ajv.ts';

/**
 * FromSchema is a type: these checks run in `npm run typecheck`. `expectType<Equal<A, B>>()` compiles
 * only when A and B are the same type; each `@ts-expect-error` line must not compile.
 */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<_T extends true>(): void {}

const person = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    age: { type: 'integer' },
    admin: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    kind: { type: 'string', enum: ['human', 'robot'] },
    version: { const: 2 },
    nothing: { type: 'null' },
    labels: { type: 'object', additionalProperties: { type: 'number' } },
    extra: { type: 'object' },
    any: {},
  },
  required: ['name', 'kind'],
} as const;
type Person = FromSchema<typeof person>;

test('FromSchema: each keyword of the subset gives its TypeScript type', () => {
  expectType<Equal<FromSchema<{ type: 'string' }>, string>>();
  expectType<Equal<FromSchema<{ type: 'integer' }>, number>>();
  expectType<Equal<FromSchema<{ type: 'number' }>, number>>();
  expectType<Equal<FromSchema<{ type: 'boolean' }>, boolean>>();
  expectType<Equal<FromSchema<{ type: 'null' }>, null>>();
  expectType<Equal<FromSchema<{ readonly enum: readonly ['a', 'b'] }>, 'a' | 'b'>>();
  expectType<Equal<FromSchema<{ readonly const: 7 }>, 7>>();
  expectType<Equal<FromSchema<{ type: 'array'; items: { type: 'integer' } }>, number[]>>();
  expectType<Equal<FromSchema<{ readonly type: readonly ['string', 'null'] }>, string | null>>();
  expectType<Equal<FromSchema<{ readonly type: readonly ['integer', 'null']; minimum: 0 }>, number | null>>();
  expectType<Equal<FromSchema<{ type: 'object'; additionalProperties: { type: 'string' } }>, Record<string, string>>>();
  expectType<Equal<FromSchema<{ type: 'object' }>, Record<string, unknown>>>();
  expectType<Equal<FromSchema<object>, unknown>>();
  expectType<
    Equal<
      Person,
      {
        name: string;
        kind: 'human' | 'robot';
        age?: number;
        admin?: boolean;
        tags?: string[];
        version?: 2;
        nothing?: null;
        labels?: Record<string, number>;
        extra?: Record<string, unknown>;
        any?: unknown;
      }
    >
  >();
  // @ts-expect-error a number is not a string
  expectType<Equal<FromSchema<{ type: 'integer' }>, string>>();
});

test('a value of the derived type is what the schema accepts; what the type refuses, the schema refuses', () => {
  const ok: Person = { name: 'R2', kind: 'robot', tags: ['astromech'], version: 2, labels: { height: 1.09 } };
  assert.deepEqual(violationsOf(person)(ok), []);
  // @ts-expect-error name is required
  const noName: Person = { kind: 'human' };
  // @ts-expect-error kind is one of the enum
  const badKind: Person = { name: 'x', kind: 'alien' };
  // @ts-expect-error age is an integer, not a text
  const badAge: Person = { name: 'x', kind: 'human', age: '3' };
  assert.deepEqual(violationsOf(person)(noName), ['/ required']);
  assert.deepEqual(violationsOf(person)(badKind), ['/kind enum']);
  assert.deepEqual(violationsOf(person)(badAge), ['/age type']);
});
