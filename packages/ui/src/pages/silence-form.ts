import { durationUnitsMs, type Silence, type SilenceMatcher, type SilenceRequest } from '@weir/contract';

/** The silence form as typed: matchers, start and end as text (the end may be a duration), comment. */
export interface SilenceDraft {
  readonly matchers: readonly SilenceMatcher[];
  readonly startsAt: string;
  readonly endsAt: string;
  readonly comment: string;
}

/**
 * The form's first values: a silence's own when editing; else the given matchers (a "silence similar"
 * link's), or one empty matcher, starting now and lasting 2 hours.
 */
export function silenceDraft(
  silence: Silence | undefined,
  matchers: readonly SilenceMatcher[],
  now: number,
): SilenceDraft {
  if (silence)
    return { matchers: silence.matchers, startsAt: silence.startsAt, endsAt: silence.endsAt, comment: silence.comment };
  return {
    matchers: matchers.length > 0 ? matchers : [{ field: '', op: '=', value: '' }],
    startsAt: new Date(now).toISOString(),
    endsAt: '2h',
    comment: '',
  };
}

/**
 * The request the form sends. The end may be a duration after the start (`30m`, `2h`, `1d`); times
 * are otherwise sent as typed, for the API to check (its messages name the field). A duration after
 * a start that is no date and time is an error naming both fields.
 */
export function silenceRequest(draft: SilenceDraft): SilenceRequest {
  const duration = /^\s*(\d+)\s*([smhd])\s*$/.exec(draft.endsAt);
  let endsAt = draft.endsAt.trim();
  if (duration) {
    const start = Date.parse(draft.startsAt);
    if (Number.isNaN(start))
      throw new Error(
        `Starts: '${draft.startsAt}' is not a date and time, so Ends '${draft.endsAt}' has no start to count from`,
      );
    endsAt = new Date(
      start + Number(duration[1]) * durationUnitsMs[duration[2] as 's' | 'm' | 'h' | 'd'],
    ).toISOString();
  }
  return {
    matchers: draft.matchers.map((m) => ({ field: m.field.trim(), op: m.op, value: m.value })),
    startsAt: draft.startsAt.trim(),
    endsAt,
    comment: draft.comment,
  };
}
