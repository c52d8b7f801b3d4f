/**
 * The two roles (architecture: Security model). Ids are fixed so that every node of a cluster
 * answers the same `roles[].id`.
 */
export const roleIds = { admin: 1, user: 2 } as const;
export type RoleName = keyof typeof roleIds;
export const roleNames = Object.keys(roleIds) as RoleName[];

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
