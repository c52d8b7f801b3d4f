import { roleIds, type RoleName } from '@weir/contract';

// The roles are part of the API's contract (@weir/contract); what each may do is the engine's.
export { roleIds, roleNames, type RoleName } from '@weir/contract';

export interface Role {
  readonly id: number;
  readonly name: RoleName;
}

export function role(name: RoleName): Role {
  return { id: roleIds[name], name };
}

/**
 * What a route allows: `public` needs no token; otherwise the roles that may call it. `user` routes
 * marked `self` are limited, for the `user` role, to the caller's own record (checked in the route).
 */
export type RouteAccess = 'public' | readonly RoleName[];
export const access = {
  public: 'public',
  admin: ['admin'],
  member: ['admin', 'user'],
} as const satisfies Record<string, RouteAccess>;
