/**
 * Input topics whose retention deletes records before Weir reads them (a replay of old logs into a
 * topic with the default 7-day `retention.ms`: the broker deletes by the records' own timestamps).
 * A stream worker feeds this with its input topics' settings, the records it reads and the log start
 * offsets it looks up; it keeps one warning per topic and kind, with the fix (docs/engine.md →
 * Retention of input topics). Pure: no clients, no clock of its own.
 */

/**
 * `RECORDS_NEAR_RETENTION`: a record read was older than half its topic's retention.ms.
 * `RECORDS_NEAR_RETENTION_BYTES`: a partition's unread backlog is more than half its topic's retention.bytes.
 * `RECORDS_DELETED_UNREAD`: the log start offset passed the next offset to read.
 */
export type RetentionWarningKind = 'RECORDS_NEAR_RETENTION' | 'RECORDS_NEAR_RETENTION_BYTES' | 'RECORDS_DELETED_UNREAD';

/** One warning, as `GET /api/engine/warnings` shows it. */
export interface RetentionWarning {
  readonly kind: RetentionWarningKind;
  readonly topic: string;
  /** Ids of the topologies that read the topic. */
  readonly topologies: number[];
  readonly message: string;
  /** The topic setting to change, with the command that changes it. */
  readonly fix: string;
  /** When it was first seen (ISO 8601). */
  readonly since: string;
}

/** The settings of a topic that decide what the broker deletes (-1: no limit). */
export interface TopicRetention {
  readonly retentionMs: number;
  readonly retentionBytes: number;
  /** `cleanup.policy` holds `delete`: the limits apply. */
  readonly deletes: boolean;
}

/** Kafka's default retention.ms (7 days), when a topic's settings do not name one. */
const defaultRetentionMs = 604_800_000;

export function retentionOf(configs: Readonly<Record<string, string | undefined>>): TopicRetention {
  const number = (value: string | undefined, fallback: number) => {
    const n = Number(value);
    return value === undefined || value === '' || !Number.isFinite(n) ? fallback : n;
  };
  return {
    retentionMs: number(configs['retention.ms'], defaultRetentionMs),
    retentionBytes: number(configs['retention.bytes'], -1),
    deletes: (configs['cleanup.policy'] ?? 'delete').split(',').some((p) => p.trim() === 'delete'),
  };
}

/** A duration for people: `1 h`, `7 days`, `650 days`, `90 s`. */
export function duration(ms: number): string {
  const s = ms / 1000;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} days`;
}

/** A size for people: `512 B`, `20.0 KiB`, `1.5 GiB`. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let n = bytes / 1024;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${n.toFixed(1)} ${units[unit]}`;
}

const kafkaConfigs = (topic: string, change: string) =>
  `kafka-configs.sh --bootstrap-server <broker> --alter --entity-type topics --entity-name ${topic} --add-config ${change}`;
const replayHint =
  'New topics for replays: create them with retention.ms=-1 (POST /api/topics with "options": {"retention.ms": "-1"}).';

/** The fix: which setting to change on `topic`, and the Kafka command that changes it. */
export function retentionFix(topic: string, retention: TopicRetention, kind: RetentionWarningKind): string {
  if (kind === 'RECORDS_NEAR_RETENTION_BYTES')
    return `Set retention.bytes=-1 on topic ${topic} (or a size limit well above what Weir has left to read): ${kafkaConfigs(topic, 'retention.bytes=-1')}. ${replayHint}`;
  const settings = ['retention.ms=-1'];
  if (retention.deletes && retention.retentionBytes >= 0) settings.push('retention.bytes=-1');
  const command = kafkaConfigs(topic, settings.join(','));
  const what =
    settings.length > 1
      ? `set ${settings.join(' and ')} on topic ${topic} (or limits that keep records until Weir has read them)`
      : `set retention.ms=-1 on topic ${topic} (or a retention longer than the age of the data)`;
  const then = kind === 'RECORDS_DELETED_UNREAD' ? ', then produce the deleted records again' : '';
  return `${what[0]!.toUpperCase()}${what.slice(1)}: ${command}${then}. ${replayHint}`;
}

const warningKey = (kind: RetentionWarningKind, topic: string) => `${kind}\u0000${topic}`;

export class RetentionWatch {
  readonly #settings = new Map<string, TopicRetention>();
  /** Per topic with a time limit: records older than this many ms count (half its retention.ms). */
  readonly #thresholds = new Map<string, number>();
  readonly #warnings = new Map<string, RetentionWarning>();
  readonly #topologies: (topic: string) => number[];
  readonly #onChange: (warnings: RetentionWarning[]) => void;

  /** `topologies`: ids of the topologies reading a topic; `onChange`: every warning, when one is added or removed. */
  constructor(topologies: (topic: string) => number[], onChange: (warnings: RetentionWarning[]) => void) {
    this.#topologies = topologies;
    this.#onChange = onChange;
  }

  /**
   * An input topic's settings as just read. A topic that no longer deletes by time loses its
   * RECORDS_NEAR_RETENTION warning; one that no longer deletes by size, its RECORDS_NEAR_RETENTION_BYTES.
   */
  settings(topic: string, retention: TopicRetention): void {
    this.#settings.set(topic, retention);
    let removed = false;
    if (retention.deletes && retention.retentionMs >= 0) this.#thresholds.set(topic, retention.retentionMs / 2);
    else {
      this.#thresholds.delete(topic);
      removed = this.#warnings.delete(warningKey('RECORDS_NEAR_RETENTION', topic));
    }
    if (this.bytesLimit(topic) === undefined)
      removed = this.#warnings.delete(warningKey('RECORDS_NEAR_RETENTION_BYTES', topic)) || removed;
    if (removed) this.#onChange(this.warnings());
  }

  /** The topic's retention.bytes (a limit per partition), when its settings are known and it deletes by size. */
  bytesLimit(topic: string): number | undefined {
    const retention = this.#settings.get(topic);
    return retention?.deletes && retention.retentionBytes >= 0 ? retention.retentionBytes : undefined;
  }

  /** Whether the warning of this kind on `topic` is up. */
  warned(kind: RetentionWarningKind, topic: string): boolean {
    return this.#warnings.has(warningKey(kind, topic));
  }

  /**
   * `topic`/`partition` holds about `unread` bytes not read yet (offsets `next` … `logEnd − 1`): true
   * when that is more than half its topic's retention.bytes (the first time per topic raises
   * RECORDS_NEAR_RETENTION_BYTES). The broker deletes a partition's oldest segments, read or not,
   * once the partition is past the limit.
   */
  backlog(topic: string, partition: number, unread: number, next: bigint, logEnd: bigint, now: number): boolean {
    const limit = this.bytesLimit(topic);
    if (limit === undefined || unread <= limit / 2) return false;
    if (this.warned('RECORDS_NEAR_RETENTION_BYTES', topic)) return true;
    this.#add(
      'RECORDS_NEAR_RETENTION_BYTES',
      topic,
      `Topic ${topic} keeps at most ${size(limit)} per partition (retention.bytes=${limit}), and ${topic}/${partition} ` +
        `holds about ${size(unread)} (${Math.round(unread)} bytes, offsets ${next} to ${logEnd - 1n}) that Weir has not read yet, ` +
        `more than half of it: once the partition is past the limit the broker deletes its oldest segments, read or not, ` +
        `so records not read yet can vanish without being processed.`,
      now,
    );
    return true;
  }

  /**
   * A record of an input topic, about to be processed: true when it is older than half its topic's
   * retention.ms (the first one per topic raises RECORDS_NEAR_RETENTION). One Map lookup when not.
   */
  record(topic: string, partition: number, offset: bigint, timestamp: bigint, now: number): boolean {
    const threshold = this.#thresholds.get(topic);
    // -1: a record without a timestamp (message format v0): its age is unknown
    if (threshold === undefined || timestamp < 0n) return false;
    const age = now - Number(timestamp);
    if (age <= threshold) return false;
    const key = warningKey('RECORDS_NEAR_RETENTION', topic);
    if (this.#warnings.has(key)) return true;
    const retention = this.#settings.get(topic)!;
    const limit = `${duration(retention.retentionMs)} (retention.ms=${retention.retentionMs})`;
    const when =
      age >= retention.retentionMs
        ? 'older than that are deleted by the broker at its next retention check'
        : `that old are deleted within ${duration(retention.retentionMs - age)}`;
    this.#add(
      'RECORDS_NEAR_RETENTION',
      topic,
      `Topic ${topic} keeps records ${limit}, and Weir reads records ${duration(age)} old ` +
        `(${topic}/${partition} offset ${offset}, timestamp ${new Date(Number(timestamp)).toISOString()}): records ${when}, ` +
        `read or not, so records not read yet can vanish without being processed.`,
      now,
    );
    return true;
  }

  /**
   * `topic`/`partition`'s log start offset is `logStart` while the next offset Weir was to read is
   * `next`: records `next` … `logStart − 1` were deleted unread (the first loss per topic raises
   * RECORDS_DELETED_UNREAD). Returns how many were lost.
   */
  deleted(topic: string, partition: number, next: bigint, logStart: bigint, now: number): number {
    if (logStart <= next) return 0;
    const lost = Number(logStart - next);
    if (this.#warnings.has(warningKey('RECORDS_DELETED_UNREAD', topic))) return lost;
    const retention = this.#settings.get(topic);
    const limits = retention
      ? ` (retention.ms=${retention.retentionMs}, retention.bytes=${retention.retentionBytes}, cleanup.policy ${retention.deletes ? 'deletes' : 'does not delete'})`
      : '';
    this.#add(
      'RECORDS_DELETED_UNREAD',
      topic,
      `${lost} record(s) of ${topic}/${partition} (offsets ${next} to ${logStart - 1n}) were deleted by the broker ` +
        `before Weir read them: the partition now starts at offset ${logStart}, Weir's next offset was ${next}. ` +
        `The topic's retention${limits} deleted them; Weir cannot process what the broker deleted.`,
      now,
    );
    return lost;
  }

  /** Forgets every warning (the engine stopped). */
  clear(): void {
    if (this.#warnings.size === 0) return;
    this.#warnings.clear();
    this.#onChange([]);
  }

  warnings(): RetentionWarning[] {
    return [...this.#warnings.values()];
  }

  #add(kind: RetentionWarningKind, topic: string, message: string, now: number): void {
    const retention = this.#settings.get(topic) ?? retentionOf({});
    this.#warnings.set(warningKey(kind, topic), {
      kind,
      topic,
      topologies: this.#topologies(topic),
      message,
      fix: retentionFix(topic, retention, kind),
      since: new Date(now).toISOString(),
    });
    this.#onChange(this.warnings());
  }
}
