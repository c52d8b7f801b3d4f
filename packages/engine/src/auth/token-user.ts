import type { TokenClaims, TokenService, TokenType } from './tokens.ts';
import type { User, UserDirectory } from './user-directory.ts';

/**
 * The user a bearer token stands for, checked on every request: a valid signature and type, a login
 * session not revoked by logout, a user that still exists, and the user's current session key (a
 * password or role change replaced it, so older tokens fail at once, on every node).
 */
export async function tokenUser(
  tokens: TokenService,
  users: UserDirectory,
  token: string,
  type: TokenType,
): Promise<{ user: User; claims: TokenClaims } | undefined> {
  const claims = await tokens.verify(token, type);
  if (!claims) return undefined;
  const session = users.session(claims.username);
  if (!session || session.key !== claims.key) return undefined;
  return { user: session.user, claims };
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearer(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}
