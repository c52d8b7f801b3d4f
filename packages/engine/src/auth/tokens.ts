import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { ConfigStore } from '../store/config-store.ts';

export const tokenTypes = { access: 'access', refresh: 'refresh' } as const;
export type TokenType = keyof typeof tokenTypes;

export interface TokenPair {
  readonly access_token: string;
  readonly refresh_token: string;
}

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

  async issue(username: string): Promise<TokenPair> {
    const [access_token, refresh_token] = await Promise.all([this.#sign(username, 'access'), this.#sign(username, 'refresh')]);
    return { access_token, refresh_token };
  }

  /** The username of a valid token of the given type, or undefined. */
  async verify(token: string, type: TokenType): Promise<string | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#currentKey, { algorithms: ['HS256'], issuer });
      if (payload.typ !== type || typeof payload.sub !== 'string') return undefined;
      return payload.sub;
    } catch {
      return undefined;
    }
  }

  #sign(username: string, type: TokenType): Promise<string> {
    return new SignJWT({ typ: type })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(username)
      .setIssuer(issuer)
      .setIssuedAt()
      .setJti(randomBytes(9).toString('base64url'))
      .setExpirationTime(`${this.#lifetimes[type]}s`)
      .sign(this.#currentKey);
  }
}
