import type { FromSchema } from './from-schema.ts';
import { roleNames } from './roles.ts';

// The request bodies of the user endpoints (spec: Users, Authentication).
const role = {
  type: 'object',
  required: ['name'],
  properties: { id: { type: 'integer' }, name: { type: 'string', enum: roleNames } },
  additionalProperties: false,
} as const;

const userFields = {
  username: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.@-]+$' },
  name: { type: 'string', maxLength: 256 },
  email: { type: 'string', maxLength: 320 },
  password: { type: 'string', maxLength: 1024 },
  roles: { type: 'array', items: role, maxItems: 8 },
} as const;

/** POST /api/init and POST /api/users: username and a non-empty password are required. */
export const newUserBody = {
  type: 'object',
  required: ['username', 'password'],
  properties: { ...userFields, password: { type: 'string', minLength: 1, maxLength: 1024 } },
  additionalProperties: false,
} as const;

/** PUT /api/users/{username}: everything optional; an empty password keeps the old one. */
export const userUpdateBody = {
  type: 'object',
  properties: userFields,
  additionalProperties: false,
} as const;

export const loginBody = {
  type: 'object',
  required: ['username', 'password'],
  properties: { username: { type: 'string', maxLength: 128 }, password: { type: 'string', maxLength: 1024 } },
} as const;

export const usernameParams = {
  type: 'object',
  properties: { username: { type: 'string' } },
} as const;

/** A new user (POST /api/init, POST /api/users). */
export type UserInput = FromSchema<typeof newUserBody>;
/** A user's changes (PUT /api/users/{username}): what is left out stays as it is. */
export type UserUpdate = FromSchema<typeof userUpdateBody>;
export type LoginRequest = FromSchema<typeof loginBody>;
