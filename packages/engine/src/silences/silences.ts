import { randomUUID } from 'node:crypto';
import { domainError, withDetails } from '../core/errors.ts';
import type { ConfigStore } from '../store/config-store.ts';
import { fieldProblem, matcherRegExp } from './silence-match.ts';
import { silenceState, type Silence, type SilenceRequest, type SilenceState, type StoredSilence } from '@weir/contract';
import { instantMs } from '../core/instant.ts';

const kind = { one: 'silence', many: 'silences' } as const;

const iso = (ms: number) => new Date(ms).toISOString();

/** Every violation of a body the schema let through: field paths, regular expressions, times. */
function violations(body: SilenceRequest, startsAt: number, endsAt: number, now: number, startRaw: unknown): string[] {
  const found: string[] = [];
  body.matchers.forEach((m, i) => {
    const field = fieldProblem(m.field);
    if (field !== undefined) found.push(`body.matchers.${i}.field: ${field}`);
    if (m.op === '=~' || m.op === '!~') {
      try {
        matcherRegExp(m.value);
      } catch (err) {
        found.push(`body.matchers.${i}.value: not a regular expression: ${(err as Error).message}`);
      }
    }
  });
  const when =
    'must be an ISO 8601 date-time (2026-11-23T06:00:00Z) or milliseconds since the epoch, from 1970 to 275760';
  const valid = (ms: number) => Number.isFinite(ms) && ms >= 0 && ms <= 8.64e15;
  if (startRaw !== undefined && !valid(startsAt)) found.push(`body.startsAt: ${when}; got '${String(startRaw)}'`);
  if (!valid(endsAt)) found.push(`body.endsAt: ${when}; got '${String(body.endsAt)}'`);
  else if (valid(startsAt) && endsAt <= startsAt)
    found.push(`body.endsAt: must be later than startsAt (${iso(startsAt)}); got ${iso(endsAt)}`);
  else if (endsAt <= now) found.push(`body.endsAt: must be in the future (now is ${iso(now)}); got ${iso(endsAt)}`);
  return found;
}

function refuse(found: readonly string[]): never {
  throw withDetails(domainError('VALIDATION', found.join('; ')), found);
}

/** A stored silence as answered: with its state at `now`. */
export function shown(s: StoredSilence, now: number): Silence {
  return { ...s, state: silenceState(s, now) };
}

/**
 * The silences of the node's config store (collection `silences`, shared by every node in kafka
 * mode): created, edited and expired, never deleted, as in Alertmanager. Writes go through the
 * auditing store, so each is audited as `silence` `create`/`update` with the record before and after.
 */
export class Silences {
  readonly #store: ConfigStore;
  readonly #clock: () => number;

  constructor(store: ConfigStore, clock: () => number = Date.now) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Every silence, in the order they were created, optionally only those in `state` now. */
  list(state?: SilenceState): Silence[] {
    const now = this.#clock();
    const all = this.#store.list<StoredSilence>('silences').map((s) => shown(s, now));
    return state === undefined ? all : all.filter((s) => s.state === state);
  }

  get(id: string): Silence {
    const s = this.#store.get<StoredSilence>('silences', id);
    if (s === undefined) throw domainError('RESOURCE_MISSING', kind);
    return shown(s, this.#clock());
  }

  async create(body: SilenceRequest, by: string): Promise<Silence> {
    const now = this.#clock();
    const startsAt = body.startsAt === undefined ? now : instantMs(body.startsAt);
    const endsAt = instantMs(body.endsAt);
    const found = violations(body, startsAt, endsAt, now, body.startsAt);
    if (found.length > 0) refuse(found);
    const silence: StoredSilence = {
      id: randomUUID(),
      matchers: body.matchers.map(({ field, op, value }) => ({ field, op, value })),
      startsAt: iso(startsAt),
      endsAt: iso(endsAt),
      comment: body.comment,
      createdBy: by,
      createdAt: iso(now),
    };
    await this.#store.put('silences', silence.id, silence);
    return shown(silence, now);
  }

  /** Replaces matchers, times and comment of a pending or active silence; an expired one is refused. */
  async update(id: string, body: SilenceRequest, by: string): Promise<Silence> {
    const before = this.#store.get<StoredSilence>('silences', id);
    if (before === undefined) throw domainError('RESOURCE_UPDATE_MISSING', kind);
    const now = this.#clock();
    this.#refuseExpired(before, now, 'changed: create a new one');
    const startsAt = body.startsAt === undefined ? Date.parse(before.startsAt) : instantMs(body.startsAt);
    const endsAt = instantMs(body.endsAt);
    const found = violations(body, startsAt, endsAt, now, body.startsAt);
    if (found.length > 0) refuse(found);
    const silence: StoredSilence = {
      ...before,
      matchers: body.matchers.map(({ field, op, value }) => ({ field, op, value })),
      startsAt: iso(startsAt),
      endsAt: iso(endsAt),
      comment: body.comment,
      updatedBy: by,
      updatedAt: iso(now),
    };
    await this.#store.put('silences', id, silence);
    return shown(silence, now);
  }

  /** Ends a silence now (a pending one also starts now, so it never was active), as Alertmanager's expire. */
  async expire(id: string, by: string): Promise<Silence> {
    const before = this.#store.get<StoredSilence>('silences', id);
    if (before === undefined) throw domainError('RESOURCE_MISSING', kind);
    const now = this.#clock();
    this.#refuseExpired(before, now, 'expired again');
    const pending = silenceState(before, now) === 'pending';
    const silence: StoredSilence = {
      ...before,
      ...(pending ? { startsAt: iso(now) } : {}),
      endsAt: iso(now),
      updatedBy: by,
      updatedAt: iso(now),
    };
    await this.#store.put('silences', id, silence);
    return shown(silence, now);
  }

  #refuseExpired(s: StoredSilence, now: number, what: string): void {
    if (silenceState(s, now) === 'expired')
      throw domainError('VALIDATION', `Silence ${s.id} expired at ${s.endsAt}; an expired silence cannot be ${what}.`);
  }
}
