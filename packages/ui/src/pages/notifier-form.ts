import type { NewNotifier, Notifier, NotifierMatcher, NotifierUpdate, Severity } from '@weir/contract';

/** The notifier form as typed: the matcher's parts apart, the secret empty unless one is typed. */
export interface NotifierDraft {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly secret: string;
  readonly minSeverity: Severity | null;
  readonly rules: readonly string[];
  readonly techniques: readonly string[];
  readonly rateLimitPerMinute: number;
  readonly enabled: boolean;
  readonly caCertificate: string;
}

/** A notifier's values in the form (a new one: every alert, 60 a minute, enabled). */
export function notifierDraft(n: Notifier | undefined): NotifierDraft {
  return {
    id: n?.id ?? '',
    name: n?.name ?? '',
    url: n?.url ?? 'https://',
    secret: '',
    minSeverity: n?.matcher.minSeverity ?? null,
    rules: n?.matcher.rules ?? [],
    techniques: n?.matcher.techniques ?? [],
    rateLimitPerMinute: n?.rateLimitPerMinute ?? 60,
    enabled: n?.enabled ?? true,
    caCertificate: n?.caCertificate ?? '',
  };
}

function matcherOf(d: NotifierDraft): NotifierMatcher {
  return {
    ...(d.minSeverity ? { minSeverity: d.minSeverity } : {}),
    ...(d.rules.length ? { rules: [...d.rules] } : {}),
    ...(d.techniques.length ? { techniques: [...d.techniques] } : {}),
  };
}

/**
 * The request of the form: a new notifier with everything typed; an edit without `secret` when
 * none was typed (the stored one is kept). Empty optional fields are left out, for the API to
 * apply its defaults and to name what is wrong.
 */
export function notifierRequest(d: NotifierDraft, isNew: boolean): NewNotifier | NotifierUpdate {
  const common = {
    name: d.name,
    url: d.url.trim(),
    matcher: matcherOf(d),
    rateLimitPerMinute: d.rateLimitPerMinute,
    enabled: d.enabled,
    ...(d.caCertificate.trim() ? { caCertificate: d.caCertificate } : {}),
  };
  if (isNew) return { id: d.id.trim(), ...common, secret: d.secret };
  return { ...common, ...(d.secret ? { secret: d.secret } : {}) };
}

/** The matcher in words, for the table: `high or above · rules r1, r2 · T1110`; every alert when empty. */
export function matcherSummary(m: NotifierMatcher): string {
  const parts = [
    m.minSeverity ? `${m.minSeverity} or above` : undefined,
    m.rules?.length ? `rules ${m.rules.join(', ')}` : undefined,
    m.techniques?.length ? m.techniques.join(', ') : undefined,
  ].filter((p): p is string => p !== undefined);
  return parts.length ? parts.join(' · ') : 'every alert';
}
