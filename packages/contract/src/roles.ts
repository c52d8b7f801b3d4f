/**
 * The two roles (architecture: Security model). Ids are fixed so that every node of a cluster
 * answers the same `roles[].id`.
 */
export const roleIds = { admin: 1, user: 2 } as const;
export type RoleName = keyof typeof roleIds;
export const roleNames = Object.keys(roleIds) as RoleName[];
