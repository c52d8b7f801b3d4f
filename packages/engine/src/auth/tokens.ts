import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { ConfigStore } from '../store/config-store.ts';

export const tokenTypes = { access: 'access', refresh: 'refresh' } as const;
export type TokenType = keyof typeof tokenTypes;

export interface TokenPair {
  readonly access_token: string;
  readonly refresh_token: string;
}

/** What a valid token says: whose it is, the user's session key when issued, and its login session. */
export interface TokenClaims {
  readonly username: string;
  /** The user's session key when the token was issued; a password or role change replaces it. */
  readonly key: string;
  /** The login session: every pair refreshed from one login shares it; logout revokes it. */
  readonly sid: string;
  /** Expiry, seconds since the epoch. */
  readonly exp: number;
}

const revokedPrefix = 'revoked-session:';

const issuer = 'weir';

/**
 * Signs and checks the API's JWTs: HS256 with a per-install random secret kept in the config store
 * (so every node of a cluster accepts the tokens of the others). Only HS256 is accepted, so tokens
 * with `alg: none` or another key are refused; the `typ` claim keeps access and refresh tokens apart.
 */
export class TokenService {
  readonly #store: ConfigStore;
  #secret: string;
  #key: Uint8Array;
  readonly #lifetimes: Record<TokenType, number>;

  private constructor(store: ConfigStore, secret: string, accessSeconds: number, refreshSeconds: number) {
    this.#store = store;
    this.#secret = secret;
    this.#key = Buffer.from(secret, 'base64url');
    this.#lifetimes = { access: accessSeconds, refresh: refreshSeconds };
  }

  /**
   * The key of the secret the store holds now: when two nodes of a kafka-mode cluster start for the
   * first time together, both write a secret and the one written last is the one every node uses.
   */
  get #currentKey(): Uint8Array {
    const secret = this.#store.get<{ secret: string }>('meta', 'token-secret')?.secret;
    if (secret !== undefined && secret !== this.#secret) {
      this.#secret = secret;
      this.#key = Buffer.from(secret, 'base64url');
    }
    return this.#key;
  }

  static async open(store: ConfigStore, accessSeconds: number, refreshSeconds: number): Promise<TokenService> {
    let secret = store.get<{ secret: string }>('meta', 'token-secret');
    if (!secret) {
      secret = { secret: randomBytes(32).toString('base64url') };
      await store.put('meta', 'token-secret', secret);
      secret = store.get<{ secret: string }>('meta', 'token-secret') ?? secret;
    }
    return new TokenService(store, secret.secret, accessSeconds, refreshSeconds);
  }

  /** A new pair for the user; `sid` continues a login session (refresh), else a new one starts. */
  async issue(username: string, key: string, sid = randomBytes(12).toString('base64url')): Promise<TokenPair> {
    const [access_token, refresh_token] = await Promise.all([
      this.#sign(username, key, sid, 'access'),
      this.#sign(username, key, sid, 'refresh'),
    ]);
    return { access_token, refresh_token };
  }

  /** The claims of a valid, unrevoked token of the given type, or undefined. */
  async verify(token: string, type: TokenType): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#currentKey, { algorithms: ['HS256'], issuer });
      if (payload.typ !== type || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return undefined;
      const key = typeof payload.ver === 'string' ? payload.ver : '';
      const sid = typeof payload.sid === 'string' ? payload.sid : '';
      if (sid !== '' && this.#store.get('meta', revokedPrefix + sid) !== undefined) return undefined;
      return { username: payload.sub, key, sid, exp: payload.exp };
    } catch {
      return undefined;
    }
  }

  /**
   * Revokes a login session (POST /api/logout): its refresh and access tokens are refused from now
   * on by every node (the mark is in the config store). Marks are kept until the session's last
   * refresh token could have expired, then removed.
   */
  async revoke(sid: string): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    await this.#store.put('meta', revokedPrefix + sid, { sid, until: now + this.#lifetimes.refresh });
    for (const mark of this.#store.list<{ sid?: unknown; until?: unknown }>('meta')) {
      if (typeof mark.sid === 'string' && typeof mark.until === 'number' && mark.until < now) {
        await this.#store.delete('meta', revokedPrefix + mark.sid);
      }
    }
  }

  #sign(username: string, key: string, sid: string, type: TokenType): Promise<string> {
    return new SignJWT({ typ: type, ver: key, sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(username)
      .setIssuer(issuer)
      .setIssuedAt()
      .setJti(randomBytes(9).toString('base64url'))
      .setExpirationTime(`${this.#lifetimes[type]}s`)
      .sign(this.#currentKey);
  }
}
