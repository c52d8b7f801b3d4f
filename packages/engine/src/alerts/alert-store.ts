import path from 'node:path';
import type { Settings } from '../config/settings.ts';
import type { AuditingStore } from '../audit/auditing-store.ts';
import { currentActor } from '../audit/audit-context.ts';
import type { AuditEntry } from '../store/config-store.ts';
import { domainError, withDetails } from '../core/errors.ts';
import { SerialQueue } from '../core/serial-queue.ts';
import { kafkaConnection } from '../kafka/client-options.ts';
import { brokerReason } from '../kafka/broker-errors.ts';
import type { TopicPorts } from '../kafka/topic-clients.ts';
import { alertsTopicName, alertTriageTopicName } from '../kafka/weir-topics.ts';
import { AlertIndex, type SilencedTest } from './alert-index.ts';
import { alertFilter, groupQuery } from './alert-query.ts';
import { AlertWriter, type TriageEntry } from './alert-writer.ts';
import { TopicFollower } from './topic-follower.ts';
import { applyTriageChange, describeTriageChange, parseTriage } from './triage.ts';
import type {
  AlertGroupQuery,
  AlertListQuery,
  AlertPage,
  AlertTriageChange,
  AlertView,
  AlertGroup,
} from '@weir/contract';

export interface AlertStoreLog {
  warn(message: string): void;
}

const pruneEveryMs = 60_000;

/**
 * The alert store of one node (docs/alerts.md, "The alert store and triage"): its index, the two
 * followers that fill it (the alerts topic and the triage topic), and triage writes, which go to the
 * compacted triage topic first and are applied to this node's index at once (every other node
 * applies them when it reads them). The index's writes run on the alert writer thread
 * (alert-writer.ts); the API's reads use `index`, the main thread's own connection to the file.
 */
export class AlertStore {
  /** The main thread's connection: reads (writes go to the writer thread; tests may write here). */
  readonly index: AlertIndex;
  readonly alertsTopic: string;
  readonly triageTopic: string;
  readonly #settings: Settings;
  readonly #uuid: string;
  readonly #producer: TopicPorts['producer'];
  readonly #audit: AuditingStore;
  readonly #log: AlertStoreLog;
  readonly #writes = new SerialQueue();
  readonly #followers: TopicFollower[] = [];
  readonly #writer: AlertWriter;
  /** Per topic, the follower's current run (alert-writer-thread.ts: a failed batch's run is refused). */
  readonly #runs = new Map<string, number>();
  #skipped = 0;
  #pruneTimer: NodeJS.Timeout | undefined;

  constructor(
    settings: Settings,
    uuid: string,
    producer: TopicPorts['producer'],
    audit: AuditingStore,
    log: AlertStoreLog,
  ) {
    this.#settings = settings;
    this.#uuid = uuid;
    this.#producer = producer;
    this.#audit = audit;
    this.#log = log;
    const prefix = settings.get('weir.topic.prefix');
    this.alertsTopic = alertsTopicName(prefix, settings.get('weir.output.names'));
    this.triageTopic = alertTriageTopicName(prefix);
    const location = path.join(settings.get('weir.home'), 'var', 'alerts');
    const retention = {
      days: settings.get('weir.alerts.retention-days'),
      maxCount: settings.get('weir.alerts.max-count'),
    };
    // opened (schema, upgrade, a first retention pass) before the writer thread opens it too
    this.index = new AlertIndex(location, retention);
    this.#writer = new AlertWriter({ location, retention });
  }

  /** The positions `topic`'s follower starts from; a new run each time (it starts, or restarts after a failure). */
  #startRun(topic: string): Map<number, number> {
    this.#runs.set(topic, (this.#runs.get(topic) ?? 0) + 1);
    return this.index.positions(topic);
  }

  /** Starts reading the alerts and triage topics into the index (the topics exist: the node created them). */
  start(): void {
    if (this.#followers.length > 0) return;
    // the writer thread starts (its modules loaded, its connection opened) while the followers connect
    this.#writer.open().catch((err: Error) => this.#log.warn(`alert store: ${err.message}`));
    const group = `${this.#settings.get('weir.application.id')}-alerts-${this.#uuid}`;
    const connection = { ...kafkaConnection(this.#settings, group), groupId: group };
    const onError = (err: Error) => this.#log.warn(`alert store: ${err.message}`);
    this.#followers.push(
      new TopicFollower({
        connection,
        topic: this.alertsTopic,
        positions: () => this.#startRun(this.alertsTopic),
        apply: async (records, next) => {
          const run = this.#runs.get(this.alertsTopic)!;
          this.#countSkipped((await this.#writer.ingest(this.alertsTopic, records, next, run)).skipped);
        },
        onError,
      }),
      new TopicFollower({
        connection: { ...connection, clientId: `${group}-triage` },
        topic: this.triageTopic,
        positions: () => this.#startRun(this.triageTopic),
        apply: (records, next) => {
          const entries: TriageEntry[] = [];
          for (const r of records) {
            const triage = parseTriage(r.value);
            if (r.key && triage) entries.push({ id: r.key.toString('utf8'), triage, offset: r.offset });
          }
          const run = this.#runs.get(this.triageTopic)!;
          return this.#writer.applyTriage(entries, { topic: this.triageTopic, run, next });
        },
        onError,
      }),
    );
    for (const f of this.#followers) f.start();
    this.#pruneTimer = setInterval(
      () => void this.#writer.prune().catch((err: Error) => this.#log.warn(`alert store: retention: ${err.message}`)),
      pruneEveryMs,
    ).unref();
  }

  /** Stops the followers (their batches under way are written first), then the writer thread. */
  async close(): Promise<void> {
    clearInterval(this.#pruneTimer);
    await Promise.all(this.#followers.map((f) => f.close()));
    await this.#writer.close();
    this.index.close();
  }

  /** `silenced`: whether an alert is silenced now (the `silenced` filter; docs/alerts.md, "Silences"). */
  list(query: AlertListQuery, silenced?: SilencedTest): AlertPage {
    return this.index.list(alertFilter(query), silenced);
  }

  get(id: string): AlertView {
    const alert = this.index.get(id);
    if (!alert) throw domainError('ALERT_MISSING', id);
    return alert;
  }

  groups(query: AlertGroupQuery, silenced?: SilencedTest): { by: string; groups: AlertGroup[] } {
    const { by, filter } = groupQuery(query);
    return { by: query.by, groups: this.index.groups(by, filter, silenced) };
  }

  /** One alert's triage change; answers the alert as it is now. */
  async triage(id: string, change: AlertTriageChange, user: string | null): Promise<AlertView> {
    await this.bulkTriage([id], change, user);
    return this.get(id);
  }

  /**
   * The same change for every alert of `ids`, all or none: an unknown id or a change that breaks the
   * triage rules for one alert refuses the whole request. Each change is one record on the triage
   * topic (acks=all), then applied here and audited (before and after; a failed audit write is a
   * 503 that says the change was stored).
   */
  async bulkTriage(ids: readonly string[], change: AlertTriageChange, user: string | null): Promise<AlertView[]> {
    return this.#writes.run(async () => {
      const known = this.index.has(ids);
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length === 1) throw domainError('ALERT_MISSING', missing[0]!);
      if (missing.length > 1)
        throw withDetails(
          domainError('ALERT_MISSING', missing.join(', ')),
          missing.map((id) => `${id}: not stored`),
        );
      const now = Date.now();
      const changes = ids.map((id) => {
        const before = this.index.triageOf(id);
        return { id, before, after: applyTriageChange(before, change, user, now) };
      });
      let written;
      try {
        written = await this.#producer.send(
          this.triageTopic,
          changes.map((c) => ({ key: Buffer.from(c.id), value: Buffer.from(JSON.stringify(c.after)) })),
        );
      } catch (err) {
        throw domainError(
          'UNAVAILABLE',
          `Nothing was changed: the triage could not be written to ${this.triageTopic} (${brokerReason(err)}).`,
        );
      }
      // applied by the writer thread, acknowledged once committed: the answer below reads it
      await this.#writer.applyTriage(
        changes.map((c, i) => ({ id: c.id, triage: c.after, offset: written[i]!.offset })),
      );
      const actor = currentActor();
      const entries: AuditEntry[] = changes.map((c) => ({
        time: now,
        user,
        address: actor?.address ?? null,
        kind: 'alert',
        action: 'triage',
        id: c.id,
        before: c.before,
        after: c.after,
        detail: describeTriageChange(c.before, c.after),
      }));
      try {
        await this.#audit.appendAudit(entries);
      } catch (err) {
        // the change is on the triage topic already: say so, rather than that nothing changed
        throw domainError(
          'UNAVAILABLE',
          `The triage change was stored, but its audit entries could not be written (${(err as Error).message}).`,
        );
      }
      return ids.map((id) => this.get(id));
    });
  }

  #countSkipped(skipped: number): void {
    if (skipped === 0) return;
    const before = this.#skipped;
    this.#skipped += skipped;
    if (before === 0 || Math.floor(before / 1000) !== Math.floor(this.#skipped / 1000))
      this.#log.warn(
        `alert store: ${this.#skipped} record(s) of ${this.alertsTopic} without a valid _alert were not indexed (docs/alerts.md)`,
      );
  }

  /** Records of the alerts topic not indexed since the node started (no `_alert`, not JSON). */
  get skipped(): number {
    return this.#skipped;
  }
}
