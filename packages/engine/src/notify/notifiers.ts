import { X509Certificate } from 'node:crypto';
import {
  defaultNotifierRateLimit,
  type NewNotifier,
  type Notifier,
  type NotifierUpdate,
  type StoredNotifier,
} from '@weir/contract';
import { DomainError, domainError } from '../core/errors.ts';
import type { ConfigStore } from '../store/config-store.ts';

const names = { one: 'notifier', many: 'notifiers' } as const;

/** A notifier as answered: the stored one without its secret. */
export function shownNotifier(stored: StoredNotifier): Notifier {
  const { secret, ...rest } = stored;
  return { ...rest, secretSet: typeof secret === 'string' && secret.length > 0 };
}

/** 400 VALIDATION naming the field, with the violation in `errors` too. */
function invalid(field: string, problem: string): DomainError<'VALIDATION'> {
  const message = `body.${field} ${problem}`;
  return new DomainError('VALIDATION', [message], [message]);
}

/** The checks no schema says: an https:// URL, a CA certificate that is PEM. */
function checked(body: NewNotifier | NotifierUpdate): void {
  let url: URL | undefined;
  try {
    url = new URL(body.url);
  } catch {
    throw invalid('url', `must be an https:// URL, found '${body.url}'`);
  }
  if (url.protocol !== 'https:') throw invalid('url', `must be an https:// URL, found '${body.url}'`);
  if (body.caCertificate !== undefined) {
    try {
      new X509Certificate(body.caCertificate);
    } catch {
      throw invalid('caCertificate', 'must be a PEM certificate (-----BEGIN CERTIFICATE----- …)');
    }
  }
}

function stored(id: string, body: NewNotifier | NotifierUpdate, secret: string): StoredNotifier {
  return {
    id,
    name: body.name,
    ...(body.description === undefined ? {} : { description: body.description }),
    url: body.url,
    secret,
    matcher: body.matcher ?? {},
    rateLimitPerMinute: body.rateLimitPerMinute ?? defaultNotifierRateLimit,
    enabled: body.enabled ?? true,
    ...(body.caCertificate === undefined ? {} : { caCertificate: body.caCertificate }),
  };
}

/**
 * The notifiers (docs/alerts.md, "Notifications"), kept in the node's config store (collection
 * `notifiers`; `<prefix>_notifiers` in kafka mode, so every node sees them). Writes through the
 * auditing store are audited without the secret.
 */
export class Notifiers {
  readonly #store: ConfigStore;
  /** The stored notifiers, read once per change (the delivery asks for every alert). */
  #stored: StoredNotifier[] | undefined;

  constructor(store: ConfigStore) {
    this.#store = store;
    store.onChange((collection) => {
      if (collection === 'notifiers') this.#stored = undefined;
    });
  }

  /** Every notifier as stored (with secrets), for the delivery. */
  stored(): readonly StoredNotifier[] {
    return (this.#stored ??= this.#store.list<StoredNotifier>('notifiers'));
  }

  list(): Notifier[] {
    return this.stored().map(shownNotifier);
  }

  get(id: string): Notifier {
    const found = this.#store.get<StoredNotifier>('notifiers', id);
    if (!found) throw domainError('RESOURCE_MISSING', names);
    return shownNotifier(found);
  }

  async create(body: NewNotifier): Promise<Notifier> {
    checked(body);
    if (this.#store.get('notifiers', body.id) !== undefined) throw domainError('RESOURCE_EXISTS', names);
    const record = stored(body.id, body, body.secret);
    await this.#store.put('notifiers', body.id, record);
    return shownNotifier(record);
  }

  async update(id: string, body: NotifierUpdate): Promise<Notifier> {
    if (body.id !== undefined && body.id !== id) throw domainError('RESOURCE_ID_MISMATCH', names, id, body.id);
    checked(body);
    const before = this.#store.get<StoredNotifier>('notifiers', id);
    if (!before) throw domainError('RESOURCE_UPDATE_MISSING', names);
    const record = stored(id, body, body.secret ?? before.secret);
    await this.#store.put('notifiers', id, record);
    return shownNotifier(record);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.#store.delete('notifiers', id))) throw domainError('RESOURCE_DELETE_MISSING', names);
  }
}
