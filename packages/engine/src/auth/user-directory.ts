import { randomBytes } from 'node:crypto';
import { SerialQueue } from '../core/serial-queue.ts';
import { domainError } from '../core/errors.ts';
import type { ConfigStore } from '../store/config-store.ts';
import { passwordProblem } from './password-policy.ts';
import { dummyHash, hashPassword, verifyPassword } from './passwords.ts';
import { role, type Role, type RoleName } from './roles.ts';

/** A user as the API shows it (spec: User); the password is never returned. */
export interface User {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly roles: readonly Role[];
}

interface StoredUser extends User {
  readonly passwordHash: string;
  /**
   * Random; carried by every token issued to the user and replaced when the password or the roles
   * change, which revokes every token issued before (docs/security.md, "Sessions"). Users stored
   * before it existed have none ('' in their tokens).
   */
  readonly sessionKey?: string;
}

const newSessionKey = () => randomBytes(12).toString('base64url');

export interface UserInput {
  readonly username: string;
  readonly name?: string;
  readonly email?: string;
  readonly password?: string;
  readonly roles?: readonly { readonly name: RoleName }[];
}

function shown(user: StoredUser): User {
  return { username: user.username, name: user.name, email: user.email, roles: user.roles };
}

function rolesOf(input: UserInput, fallback: readonly Role[]): Role[] {
  if (!input.roles) return [...fallback];
  const names = [...new Set(input.roles.map((r) => r.name))];
  return names.map(role);
}

const isAdmin = (user: User) => user.roles.some((r) => r.name === 'admin');

/** Users in the config store; enforces the spec's rules and "always at least one admin". */
export class UserDirectory {
  readonly #store: ConfigStore;
  readonly #passwordMinLength: number;
  readonly #refuseCommon: boolean;

  readonly #writes = new SerialQueue();

  constructor(store: ConfigStore, passwordMinLength: number, refuseCommon = true) {
    this.#store = store;
    this.#passwordMinLength = passwordMinLength;
    this.#refuseCommon = refuseCommon;
  }

  get initialized(): boolean {
    return this.#store.list('users').length > 0;
  }

  find(username: string): User | undefined {
    const user = this.#store.get<StoredUser>('users', username);
    return user && shown(user);
  }

  get(username: string): User {
    const user = this.find(username);
    if (!user) throw domainError('USER_MISSING');
    return user;
  }

  /** The user and the session key its tokens must carry, or undefined when there is no such user. */
  session(username: string): { user: User; key: string } | undefined {
    const user = this.#store.get<StoredUser>('users', username);
    return user && { user: shown(user), key: user.sessionKey ?? '' };
  }

  list(): User[] {
    return this.#store.list<StoredUser>('users').map(shown);
  }

  /** The first user: always an admin, whatever roles the request named. */
  /**
   * User writes run one at a time: each checks the store and then awaits a password hash, so two
   * concurrent inits (or creates of one username) would otherwise both pass their check.
   */
  #serially<T>(fn: () => Promise<T>): Promise<T> {
    return this.#writes.run(fn);
  }

  init(input: UserInput): Promise<User> {
    return this.#serially(() => this.#init(input));
  }

  create(input: UserInput): Promise<User> {
    return this.#serially(() => this.#create(input));
  }

  update(username: string, input: UserInput, actor: User): Promise<User> {
    return this.#serially(() => this.#update(username, input, actor));
  }

  delete(username: string, actor: User): Promise<void> {
    return this.#serially(() => this.#delete(username, actor));
  }

  async #init(input: UserInput): Promise<User> {
    if (this.initialized) throw domainError('ALREADY_INITIALIZED');
    const roles = rolesOf(input, [role('admin')]);
    if (!roles.some((r) => r.name === 'admin')) roles.unshift(role('admin'));
    return this.#write(input, roles);
  }

  async #create(input: UserInput): Promise<User> {
    if (this.#store.get('users', input.username)) throw domainError('USER_EXISTS');
    return this.#write(input, rolesOf(input, [role('user')]));
  }

  async #update(username: string, input: UserInput, actor: User): Promise<User> {
    const current = this.#store.get<StoredUser>('users', username);
    if (!current) throw domainError('USER_MISSING');
    if (input.username !== undefined && input.username !== username)
      throw domainError('USERNAME_MISMATCH', username, input.username);
    const roles = rolesOf(input, current.roles);
    const rolesChanged =
      roles.length !== current.roles.length || roles.some((r) => !current.roles.some((c) => c.name === r.name));
    if (rolesChanged && !isAdmin(actor)) throw domainError('ROLE_CHANGE_FORBIDDEN');
    if (isAdmin(current) && !roles.some((r) => r.name === 'admin') && this.#adminCount() === 1) {
      throw domainError('LAST_ADMIN', `remove the admin role from ${username}`);
    }
    if (input.password) this.#checkPolicy(input.password, username);
    const passwordHash = input.password ? await hashPassword(input.password) : current.passwordHash;
    const next: StoredUser = {
      username,
      name: input.name ?? current.name,
      email: input.email ?? current.email,
      roles,
      passwordHash,
      // A new password or new roles end every session of the user (its tokens carry the old key).
      sessionKey: input.password || rolesChanged ? newSessionKey() : current.sessionKey,
    };
    await this.#store.put('users', username, next);
    return shown(next);
  }

  async #delete(username: string, actor: User): Promise<void> {
    if (username === actor.username) throw domainError('SELF_DELETE');
    const current = this.#store.get<StoredUser>('users', username);
    if (!current) throw domainError('USER_MISSING');
    if (isAdmin(current) && this.#adminCount() === 1) throw domainError('LAST_ADMIN', `delete ${username}`);
    await this.#store.delete('users', username);
  }

  /** The user when the password is right; costs the same time when the user does not exist. */
  async authenticate(username: string, password: string): Promise<User | undefined> {
    const user = this.#store.get<StoredUser>('users', username);
    if (!user) {
      await verifyPassword(await dummyHash(), password);
      return undefined;
    }
    return (await verifyPassword(user.passwordHash, password)) ? shown(user) : undefined;
  }

  #checkPolicy(password: string, username: string): void {
    const problem = passwordProblem(password, username, this.#passwordMinLength, this.#refuseCommon);
    if (problem !== undefined) throw domainError('PASSWORD_POLICY', problem);
  }

  async #write(input: UserInput, roles: Role[]): Promise<User> {
    this.#checkPolicy(input.password ?? '', input.username);
    const user: StoredUser = {
      username: input.username,
      name: input.name ?? '',
      email: input.email ?? '',
      roles,
      passwordHash: await hashPassword(input.password ?? ''),
      sessionKey: newSessionKey(),
    };
    await this.#store.put('users', user.username, user);
    return shown(user);
  }

  #adminCount(): number {
    return this.#store.list<StoredUser>('users').filter(isAdmin).length;
  }
}
