import { readErrorBody, SessionExpiredError, WeirApiError } from './errors.ts';
import { changeNoteHeader } from '@weir/contract';
import type {
  BacktestRequest,
  BacktestStatus,
  VersionDetail,
  VersionDiff,
  VersionSummary,
  ConsumerCreated,
  InitStatus,
  LintResult,
  LookupId,
  Produced,
  SigmaImportResult,
  SigmaMappingFile,
  SigmaMappingSummary,
  SyntaxResult,
  TailQuery,
  TestResult,
  ExplainRequest,
} from '@weir/contract';
import type { Explanation } from '@weir/pdl';
import type {
  BrokerTopic,
  ConsumedMessage,
  ConsumeRead,
  ConsumeRequest,
  ConsumerGroupDetail,
  ConsumerGroupSummary,
  DanglingReferences,
  EngineState,
  EngineWarning,
  LagHistory,
  Lookup,
  MetricsSummary,
  Node,
  Pipeline,
  ProduceRequest,
  PurgeRequest,
  PurgeResult,
  ResetOffsetsRequest,
  ResetOffsetsResult,
  Rule,
  SerdeConfiguration,
  SigmaImportRequest,
  Task,
  TaskTestOutcome,
  Tokens,
  TopicPartitions,
  TopicResult,
  TopicSettings,
  Topology,
  User,
  UserInput,
  Silence,
  SilenceRequest,
  SilenceState,
  AlertGroupQuery,
  AlertGroups,
  AlertListQuery,
  AlertPage,
  AlertTriageChange,
  AlertView,
  NewNotifier,
  Notifier,
  NotifierUpdate,
} from './types.ts';
import {
  isRefreshFailure,
  readEngineState,
  readRule,
  readTestResult,
  readTopology,
  type TestOutcome,
} from './versioning.ts';

export interface ClientOptions {
  /** Where the API is: `https://host:8999`, or '' for the page's own origin (the UI server). */
  readonly baseUrl: string;
  readonly fetch?: typeof fetch;
  readonly tokens?: Tokens;
  /** Called with each new token pair (login, refresh) and with undefined on logout/expiry. */
  readonly onTokens?: (tokens: Tokens | undefined) => void;
  /**
   * Refresh without a refresh token in memory, relying on the UI server's httpOnly cookie (after a
   * page reload). Only meaningful in a browser talking to the UI server.
   */
  readonly cookieRefresh?: boolean;
}

type Body = { json: unknown } | { text: string } | { form: FormData } | undefined;

/** The change-note header of a write, when there is a note. */
function noteHeader(note: string | undefined): Record<string, string> {
  return note === undefined ? {} : { [changeNoteHeader]: encodeURIComponent(note) };
}

/**
 * One resource kind with the spec's six routes (tasks, pipelines, topologies, rules) and its
 * versions (docs/detection-as-code.md, "Versions"). A write's optional `note` is the change note of
 * the version it stores (sent percent-encoded in `X-Weir-Change-Note`).
 */
export interface ResourceApi<T, Id extends string | number> {
  list(): Promise<T[]>;
  get(id: Id): Promise<T>;
  create(record: T, note?: string): Promise<T>;
  update(id: Id, record: T, note?: string): Promise<T>;
  delete(id: Id, note?: string): Promise<void>;
  bulk(records: T[], note?: string): Promise<T[]>;
  /** The record's versions, oldest first (kept after a delete). */
  versions(id: Id): Promise<VersionSummary[]>;
  /** One version with the record it stored (`null` for a deletion). */
  version(id: Id, version: number): Promise<VersionDetail>;
  /** The fields that differ from `from` to `to` (and, for rules, the PDL line by line). */
  diff(id: Id, from: number, to: number): Promise<VersionDiff>;
  /** Stores version `version` again, as a new version (recreates a deleted record). */
  rollback(id: Id, version: number, note?: string): Promise<T>;
}

/**
 * The typed SDK of the management API: one method per endpoint, latest-form results whatever form
 * the server speaks (versioning.ts), and a silent token refresh when an access token has expired.
 */
export class WeirClient {
  readonly #base: string;
  readonly #fetch: typeof fetch;
  readonly #onTokens: ((tokens: Tokens | undefined) => void) | undefined;
  readonly #cookieRefresh: boolean;
  #tokens: Tokens | undefined;
  #refreshing: Promise<void> | undefined;

  constructor(options: ClientOptions) {
    this.#base = options.baseUrl.replace(/\/$/, '');
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#tokens = options.tokens;
    this.#onTokens = options.onTokens;
    this.#cookieRefresh = options.cookieRefresh ?? false;
  }

  get tokens(): Tokens | undefined {
    return this.#tokens;
  }

  #setTokens(tokens: Tokens | undefined): void {
    this.#tokens = tokens;
    this.#onTokens?.(tokens);
  }

  async #send(
    method: string,
    path: string,
    body: Body,
    auth: 'access' | 'none' | string,
    extra: Record<string, string> = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...extra };
    let payload: string | FormData | undefined;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json;charset=UTF-8';
      payload = JSON.stringify(body.json);
    } else if (body && 'text' in body) {
      headers['content-type'] = 'text/plain;charset=UTF-8';
      payload = body.text;
    } else if (body) {
      payload = body.form;
    }
    const token = auth === 'access' ? this.#tokens?.access_token : auth === 'none' ? undefined : auth;
    if (token) headers.authorization = `Bearer ${token}`;
    return this.#fetch(`${this.#base}${path}`, { method, headers, body: payload ?? null, credentials: 'same-origin' });
  }

  /** A call with the access token; on 401/403 refreshes once and repeats it. */
  async #call(method: string, path: string, body?: Body, extra?: Record<string, string>): Promise<Response> {
    let res = await this.#send(method, path, body, 'access', extra);
    if ((res.status === 401 || res.status === 403) && (this.#tokens?.refresh_token || this.#cookieRefresh)) {
      const before = this.#tokens?.access_token;
      await this.#refreshOnce(before);
      res = await this.#send(method, path, body, 'access', extra);
    }
    if (!res.ok) throw await apiError(method, path, res);
    return res;
  }

  /** Concurrent calls that all met an expired token share one refresh. */
  async #refreshOnce(staleAccess: string | undefined): Promise<void> {
    if (this.#tokens && this.#tokens.access_token !== staleAccess) return;
    this.#refreshing ??= this.refresh()
      .then(() => undefined)
      .finally(() => {
        this.#refreshing = undefined;
      });
    await this.#refreshing;
  }

  async #json<T>(method: string, path: string, body?: Body, extra?: Record<string, string>): Promise<T> {
    const res = await this.#call(method, path, body, extra);
    return (await readJson(res)) as T;
  }

  // Init and authentication
  async initStatus(): Promise<InitStatus> {
    const res = await this.#send('GET', '/api/init', undefined, 'none');
    if (!res.ok) throw await apiError('GET', '/api/init', res);
    return (await readJson(res)) as InitStatus;
  }

  async init(user: UserInput): Promise<User> {
    const res = await this.#send('POST', '/api/init', { json: user }, 'none');
    if (!res.ok) throw await apiError('POST', '/api/init', res);
    return (await readJson(res)) as User;
  }

  async login(username: string, password: string): Promise<Tokens> {
    const res = await this.#send('POST', '/api/login', { json: { username, password } }, 'none');
    if (!res.ok) throw await apiError('POST', '/api/login', res);
    const tokens = (await readJson(res)) as Tokens;
    this.#setTokens(tokens);
    return tokens;
  }

  /** `GET /api/token/refresh` with the refresh token (or the UI server's cookie); 403 or 401 ends the session. */
  async refresh(): Promise<Tokens> {
    const refresh = this.#tokens?.refresh_token;
    if (!refresh && !this.#cookieRefresh) throw new SessionExpiredError(401);
    const res = await this.#send('GET', '/api/token/refresh', undefined, refresh ?? 'none');
    if (isRefreshFailure(res.status)) {
      this.#setTokens(undefined);
      throw new SessionExpiredError(res.status);
    }
    if (!res.ok) throw await apiError('GET', '/api/token/refresh', res);
    const tokens = (await readJson(res)) as Tokens;
    this.#setTokens(tokens);
    return tokens;
  }

  /** Forgets the tokens; through the UI server also clears its refresh cookie. */
  async logout(): Promise<void> {
    this.#setTokens(undefined);
    if (this.#cookieRefresh)
      await this.#fetch(`${this.#base}/ui/session/logout`, { method: 'POST', credentials: 'same-origin' });
  }

  /** The signed-in user (roles included): what the UI shows; the API stays the authority. */
  async me(): Promise<User> {
    const username = this.username();
    if (!username) throw new SessionExpiredError(401);
    return this.user(username);
  }

  /** The username in the access token. */
  username(): string | undefined {
    const token = this.#tokens?.access_token;
    if (!token) return undefined;
    try {
      return (JSON.parse(base64UrlDecode(token.split('.')[1] ?? '')) as { sub?: string }).sub;
    } catch {
      return undefined;
    }
  }

  // The service and the engine
  serdes(): Promise<SerdeConfiguration> {
    return this.#json('GET', '/api/config/serde');
  }
  async engineState(): Promise<EngineState> {
    return readEngineState(await this.#json('GET', '/api/engine/state'));
  }
  async engineStart(): Promise<EngineState> {
    return readEngineState(await this.#json('POST', '/api/engine/start'));
  }
  async engineStop(): Promise<EngineState> {
    return readEngineState(await this.#json('POST', '/api/engine/stop'));
  }
  /** This node's retention warnings (not in the spec; docs/api.md → Engine). */
  async engineWarnings(): Promise<EngineWarning[]> {
    return (await this.#json<{ warnings: EngineWarning[] }>('GET', '/api/engine/warnings')).warnings;
  }
  metricsSummary(): Promise<MetricsSummary> {
    return this.#json('GET', '/api/metrics/summary');
  }

  // Topics
  topics(): Promise<string[]> {
    return this.#json('GET', '/api/topics');
  }
  topic(name: string): Promise<BrokerTopic> {
    return this.#json('GET', `/api/topics/${enc(name)}`);
  }
  createTopic(topic: BrokerTopic): Promise<BrokerTopic> {
    return this.#json('POST', '/api/topics', { json: topic });
  }
  async deleteTopic(name: string): Promise<void> {
    await this.#call('DELETE', `/api/topics/${enc(name)}`);
  }
  bulkCreateTopics(topics: BrokerTopic[]): Promise<TopicResult[]> {
    return this.#json('POST', '/api/bulk/topics', { json: topics });
  }
  /** With `{offsets: true}` the answer names each message's partition and offset (docs/api.md → Producing). */
  produce(name: string, request: ProduceRequest, options: { offsets?: boolean } = {}): Promise<Produced> {
    const query = options.offsets ? '?offsets=true' : '';
    return this.#json('POST', `/api/topics/${enc(name)}/produce${query}`, { json: request });
  }
  consume(name: string, request: ConsumeRequest = {}): Promise<ConsumerCreated> {
    return this.#json('POST', `/api/topics/${enc(name)}/consume`, { json: request });
  }
  consumeRead(name: string, index = 0): Promise<ConsumeRead> {
    return this.#json('GET', `/api/topics/${enc(name)}/consume?index=${index}`);
  }

  // Topics in depth and consumer groups (docs/api.md)
  topicPartitions(name: string): Promise<TopicPartitions> {
    return this.#json('GET', `/api/topics/${enc(name)}/partitions`);
  }
  topicSettings(name: string): Promise<TopicSettings> {
    return this.#json('GET', `/api/topics/${enc(name)}/configs`);
  }
  changeTopicSettings(
    name: string,
    change: { set?: Record<string, string>; reset?: string[] },
  ): Promise<TopicSettings> {
    return this.#json('PATCH', `/api/topics/${enc(name)}/configs`, { json: change });
  }
  addPartitions(name: string, count: number): Promise<TopicPartitions> {
    return this.#json('POST', `/api/topics/${enc(name)}/partitions`, { json: { count } });
  }
  purgeTopic(name: string, request: PurgeRequest): Promise<PurgeResult> {
    return this.#json('POST', `/api/topics/${enc(name)}/purge`, { json: request });
  }
  consumerGroups(): Promise<ConsumerGroupSummary[]> {
    return this.#json('GET', '/api/consumer-groups');
  }
  consumerGroup(id: string): Promise<ConsumerGroupDetail> {
    return this.#json('GET', `/api/consumer-groups/${enc(id)}`);
  }
  lagHistory(id: string): Promise<LagHistory> {
    return this.#json('GET', `/api/consumer-groups/${enc(id)}/lag-history`);
  }
  resetOffsets(id: string, request: ResetOffsetsRequest): Promise<ResetOffsetsResult> {
    return this.#json('POST', `/api/consumer-groups/${enc(id)}/reset-offsets`, { json: request });
  }
  async deleteConsumerGroup(id: string): Promise<void> {
    await this.#call('DELETE', `/api/consumer-groups/${enc(id)}`);
  }

  /**
   * Live tail of a topic (or of the alerts with `name` undefined) over server-sent events, read
   * with fetch so that the access token goes in a header. Reconnects with a refreshed token when
   * the engine ends the stream at the token's expiry; resolves when `signal` aborts or the stream
   * ends for another reason (the reason is returned).
   */
  async tail(
    name: string | undefined,
    query: TailQuery,
    onMessage: (m: ConsumedMessage) => void,
    signal: AbortSignal,
  ): Promise<string> {
    const path = name === undefined ? '/api/alerts/tail' : `/api/topics/${enc(name)}/tail`;
    let q = { ...query };
    for (;;) {
      const params = new URLSearchParams(
        Object.entries(q)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]): [string, string] => [k, String(v)]),
      );
      const url = `${path}${params.size ? `?${params}` : ''}`;
      let res: Response;
      try {
        res = await this.#call('GET', url);
      } catch (err) {
        if (signal.aborted) return 'closed';
        throw err;
      }
      let last: ConsumedMessage | undefined;
      const reason = await readEvents(res, signal, (event, data) => {
        if (event === 'message') {
          last = data as ConsumedMessage;
          onMessage(last);
        }
      });
      if (signal.aborted || reason !== 'session expired') return reason;
      await this.refresh();
      // Continue after what was seen (one partition per position is enough for a live view).
      q =
        last?.timestamp !== undefined
          ? { ...query, offset: undefined, startOffset: undefined, startTimestamp: last.timestamp + 1 }
          : { ...query, offset: 'latest' };
    }
  }

  // Backtests (docs/detection-as-code.md, "Backtests over Kafka")
  /** `POST /api/backtests`: starts one (202); its first status (`queued`). 400 `BACKTEST_INVALID` names the field, 429 `BACKTEST_LIMIT`. */
  startBacktest(request: BacktestRequest): Promise<BacktestStatus> {
    return this.#json('POST', '/api/backtests', { json: request });
  }
  backtest(id: string): Promise<BacktestStatus> {
    return this.#json('GET', `/api/backtests/${enc(id)}`);
  }
  /** `DELETE /api/backtests/{id}`: cancels it if it is queued or running; answers its status. */
  cancelBacktest(id: string): Promise<BacktestStatus> {
    return this.#json('DELETE', `/api/backtests/${enc(id)}`);
  }

  /**
   * Follows a backtest over its server-sent events: `onStatus` with each status (its progress while
   * it runs); resolves with the last one (done, failed or cancelled). When the stream ends before
   * that (a proxy's timeout, the token's expiry) the status is read again and followed anew; when
   * `signal` aborts, resolves with the status as last seen.
   */
  async followBacktest(
    id: string,
    onStatus: (status: BacktestStatus) => void,
    signal: AbortSignal,
  ): Promise<BacktestStatus> {
    let last: BacktestStatus | undefined;
    for (;;) {
      const res = await this.#call('GET', `/api/backtests/${enc(id)}/events`);
      await readEvents(res, signal, (event, data) => {
        if (event !== 'status') return;
        last = data as BacktestStatus;
        onStatus(last);
      });
      if (signal.aborted && last) return last;
      if (last && last.state !== 'queued' && last.state !== 'running') return last;
      last = await this.backtest(id);
      if (signal.aborted || (last.state !== 'queued' && last.state !== 'running')) return last;
    }
  }

  // Users and nodes
  users(): Promise<User[]> {
    return this.#json('GET', '/api/users');
  }
  user(username: string): Promise<User> {
    return this.#json('GET', `/api/users/${enc(username)}`);
  }
  createUser(user: UserInput): Promise<User> {
    return this.#json('POST', '/api/users', { json: user });
  }
  updateUser(username: string, user: UserInput): Promise<User> {
    return this.#json('PUT', `/api/users/${enc(username)}`, { json: user });
  }
  async deleteUser(username: string): Promise<void> {
    await this.#call('DELETE', `/api/users/${enc(username)}`);
  }
  nodes(): Promise<Node[]> {
    return this.#json('GET', '/api/nodes');
  }
  node(uuid: string): Promise<Node> {
    return this.#json('GET', `/api/nodes/${enc(uuid)}`);
  }
  async deleteNode(uuid: string): Promise<void> {
    await this.#call('DELETE', `/api/nodes/${enc(uuid)}`);
  }

  // Tasks, pipelines, topologies, rules
  readonly tasks: ResourceApi<Task, number> = this.#resource<Task, number>('tasks', (x) => x as Task);
  readonly pipelines: ResourceApi<Pipeline, number> = this.#resource<Pipeline, number>(
    'pipelines',
    (x) => x as Pipeline,
  );
  readonly topologies: ResourceApi<Topology, number> = this.#resource<Topology, number>('topologies', readTopology);
  readonly rules: ResourceApi<Rule, string> = this.#resource<Rule, string>('rules', readRule);

  #resource<T, Id extends string | number>(kind: string, read: (x: unknown) => T): ResourceApi<T, Id> {
    const base = `/api/${kind}`;
    return {
      list: async () => (await this.#json<unknown[]>('GET', base)).map(read),
      get: async (id) => read(await this.#json('GET', `${base}/${enc(String(id))}`)),
      create: async (record, note) => read(await this.#json('POST', base, { json: record }, noteHeader(note))),
      update: async (id, record, note) =>
        read(await this.#json('PUT', `${base}/${enc(String(id))}`, { json: record }, noteHeader(note))),
      delete: async (id, note) => {
        await this.#call('DELETE', `${base}/${enc(String(id))}`, undefined, noteHeader(note));
      },
      bulk: async (records, note) =>
        (await this.#json<unknown[]>('POST', `/api/bulk/${kind}`, { json: records }, noteHeader(note))).map(read),
      versions: (id) => this.#json('GET', `${base}/${enc(String(id))}/versions`),
      version: (id, version) => this.#json('GET', `${base}/${enc(String(id))}/versions/${version}`),
      diff: (id, from, to) => this.#json('GET', `${base}/${enc(String(id))}/versions/${from}/diff/${to}`),
      rollback: async (id, version, note) =>
        read(
          await this.#json(
            'POST',
            `${base}/${enc(String(id))}/versions/${version}/rollback`,
            undefined,
            noteHeader(note),
          ),
        ),
    };
  }

  // Lookups
  lookups(): Promise<Lookup[]> {
    return this.#json('GET', '/api/lookups');
  }
  lookup(id: string): Promise<Lookup> {
    return this.#json('GET', `/api/lookups/${enc(id)}`);
  }
  createLookup(id: string, file: Blob, fileName: string): Promise<LookupId> {
    const form = new FormData();
    form.append('id', id);
    form.append('file', file, fileName);
    return this.#json('POST', '/api/lookups', { form });
  }
  replaceLookup(id: string, file: Blob, fileName: string): Promise<LookupId> {
    const form = new FormData();
    form.append('file', file, fileName);
    return this.#json('POST', `/api/lookups/${enc(id)}`, { form });
  }
  async deleteLookup(id: string): Promise<void> {
    await this.#call('DELETE', `/api/lookups/${enc(id)}`);
  }

  // The alert store and triage (docs/alerts.md, "The alert store and triage")
  /** A page of alerts, newest first; `query` as `GET /api/alerts` takes it (repeatable filters as arrays). */
  alerts(query: AlertListQuery = {}): Promise<AlertPage> {
    return this.#json('GET', `/api/alerts${queryString(query)}`);
  }
  alert(id: string): Promise<AlertView> {
    return this.#json('GET', `/api/alerts/${enc(id)}`);
  }
  triageAlert(id: string, change: AlertTriageChange): Promise<AlertView> {
    return this.#json('PATCH', `/api/alerts/${enc(id)}`, { json: change });
  }
  /** One change for many alerts, all or none. */
  async triageAlerts(ids: string[], change: AlertTriageChange): Promise<AlertView[]> {
    return (await this.#json<{ alerts: AlertView[] }>('POST', '/api/alerts/triage', { json: { ids, change } })).alerts;
  }
  /** Counts by rule (`by: 'rule'`) or by a field (`by: 'field:user'`), with first and last seen, over the alerts the list's filters keep (`silenced` too). */
  alertGroups(query: AlertGroupQuery): Promise<AlertGroups> {
    return this.#json('GET', `/api/alerts/groups${queryString(query)}`);
  }

  // Notifiers (docs/alerts.md, "Notifications"): admin only; the secret is never answered
  notifiers(): Promise<Notifier[]> {
    return this.#json('GET', '/api/notifiers');
  }
  notifier(id: string): Promise<Notifier> {
    return this.#json('GET', `/api/notifiers/${enc(id)}`);
  }
  createNotifier(notifier: NewNotifier): Promise<Notifier> {
    return this.#json('POST', '/api/notifiers', { json: notifier });
  }
  /** Without `secret` the stored one is kept. */
  updateNotifier(id: string, notifier: NotifierUpdate): Promise<Notifier> {
    return this.#json('PUT', `/api/notifiers/${enc(id)}`, { json: notifier });
  }
  async deleteNotifier(id: string): Promise<void> {
    await this.#call('DELETE', `/api/notifiers/${enc(id)}`);
  }

  // Silences (docs/alerts.md, "Silences"): expired, never deleted
  silences(state?: SilenceState): Promise<Silence[]> {
    return this.#json('GET', `/api/silences${state ? `?state=${enc(state)}` : ''}`);
  }
  silence(id: string): Promise<Silence> {
    return this.#json('GET', `/api/silences/${enc(id)}`);
  }
  createSilence(silence: SilenceRequest): Promise<Silence> {
    return this.#json('POST', '/api/silences', { json: silence });
  }
  updateSilence(id: string, silence: SilenceRequest): Promise<Silence> {
    return this.#json('PUT', `/api/silences/${enc(id)}`, { json: silence });
  }
  expireSilence(id: string): Promise<Silence> {
    return this.#json('POST', `/api/silences/${enc(id)}/expire`);
  }

  // Tests
  async testRule(id: string, event: Record<string, unknown>): Promise<TestOutcome> {
    return readTestResult(await this.#json('POST', `/api/test/rules/${enc(id)}`, { json: event }));
  }
  async testTask(id: number, event: string): Promise<Record<string, unknown>> {
    return (await this.testTaskOutcome(id, event)).result as Record<string, unknown>;
  }
  async testPipeline(id: number, raw: string): Promise<Record<string, unknown>> {
    return (await this.testPipelineOutcome(id, raw)).result as Record<string, unknown>;
  }
  /** The task's result and the rules its APPLY_RULES skipped (`warnings`; empty when none). */
  async testTaskOutcome(id: number, event: string): Promise<TaskTestOutcome> {
    return taskTestOutcome(await this.#json('POST', `/api/test/tasks/${id}`, { text: event }));
  }
  /** The pipeline's result and the rules its APPLY_RULES tasks skipped (`warnings`, each naming its task). */
  async testPipelineOutcome(id: number, raw: string): Promise<TaskTestOutcome> {
    return taskTestOutcome(await this.#json('POST', `/api/test/pipelines/${id}`, { text: raw }));
  }
  async testPdl(pdl: string, event: Record<string, unknown>): Promise<TestOutcome> {
    return readTestResult(
      await this.#json('POST', '/api/test/pdl', { text: JSON.stringify({ pdl, data: JSON.stringify(event) }) }),
    );
  }
  /**
   * The PDL over several events fed in order to one program, state kept across them: everything it
   * emitted (how correlations such as `event_count` are tested). 400 `PDL_INVALID` names line and column.
   */
  async testPdlSequence(pdl: string, events: readonly Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
    const body = await this.#json<TestResult>('POST', '/api/test/pdl', {
      text: JSON.stringify({ pdl, data: JSON.stringify(events) }),
    });
    if (Array.isArray(body.result)) return body.result as Record<string, unknown>[];
    throw new TypeError(`unexpected PDL sequence test result: ${JSON.stringify(body)}`);
  }
  /**
   * `POST /api/explain/pdl`: why a rule (`pdl` text or a stored `ruleId`) did or did not match an
   * `event` (or a sample, `events`, fed in order): the query tree with a truth value per node and the
   * values seen, where each event stopped, a correlation's group, window and count.
   */
  explain(request: ExplainRequest): Promise<Explanation> {
    return this.#json('POST', '/api/explain/pdl', { json: request });
  }
  /** `{ok: true}` or the parser's error with its line and column. */
  async pdlSyntax(pdl: string): Promise<PdlSyntax> {
    const body = await this.#json<SyntaxResult>('POST', '/api/test/pdl/syntax', { text: JSON.stringify({ pdl }) });
    if (body.result) return { ok: true };
    return {
      ok: false,
      message: body.error?.message ?? 'invalid PDL',
      line: body.error?.line,
      column: body.error?.column,
    };
  }

  // Sigma import
  /** `POST /api/import/sigma`: converts Sigma YAML (several documents) and, unless `dryRun`, stores the rules (admin). */
  sigmaImport(request: SigmaImportRequest): Promise<SigmaImportResult> {
    return this.#json('POST', '/api/import/sigma', { json: request });
  }
  /** The built-in Sigma mappings (name, description, whether it is the default). */
  sigmaMappings(): Promise<SigmaMappingSummary[]> {
    return this.#json('GET', '/api/import/sigma/mappings');
  }
  /** One built-in Sigma mapping with its YAML file; 404 `SIGMA_MAPPING_MISSING`. */
  sigmaMapping(name: string): Promise<SigmaMappingFile> {
    return this.#json('GET', `/api/import/sigma/mappings/${encodeURIComponent(name)}`);
  }

  // Diagnostics
  /** Every reference to something that does not exist: task → rule or lookup, pipeline → task, topology → pipeline or topic. */
  danglingReferences(): Promise<DanglingReferences> {
    return this.#json('GET', '/api/diagnostics/references');
  }

  // Lint (docs/detection-as-code.md, "Lint")
  /**
   * Diagnostics of a PDL text: stored lookups; with sample events (given, or `{topic, sample?}`: the
   * topic's most recent records, read by the server), fields none of them holds.
   */
  lintPdl(pdl: string, sample?: readonly unknown[] | { topic: string; sample?: number }): Promise<LintResult> {
    const from = sample === undefined ? {} : Array.isArray(sample) ? { events: sample } : sample;
    return this.#json('POST', '/api/lint/pdl', { json: { pdl, ...from } });
  }

  /** Diagnostics of a task: an APPLY_RULES task's rule ids that are not stored. */
  lintTask(task: { function: string; definition?: Record<string, unknown> }): Promise<LintResult> {
    return this.#json('POST', '/api/lint/task', { json: task });
  }

  /** Diagnostics of Sigma YAML (rules, correlations, filters), per document. */
  lintSigma(yaml: string): Promise<LintResult> {
    return this.#json('POST', '/api/lint/sigma', { json: { yaml } });
  }
}

/** Reads `event:`/`data:` blocks until the stream ends; returns the `end` event's reason. */
async function readEvents(
  res: Response,
  signal: AbortSignal,
  on: (event: string, data: unknown) => void,
): Promise<string> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const onAbort = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  // aborted before the stream answered (a Ctrl-C while connecting): no 'abort' event comes any more
  if (signal.aborted) onAbort();
  let buffer = '';
  let reason = 'closed';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return reason;
      buffer += value;
      let i;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        let event = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (!data) continue;
        const parsed = JSON.parse(data) as unknown;
        if (event === 'end') reason = (parsed as { reason: string }).reason;
        on(event, parsed);
      }
    }
  } catch (err) {
    if (signal.aborted) return 'closed';
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** A task or pipeline test's body; servers before `warnings` answer `{result}` only. */
function taskTestOutcome(body: { result?: unknown; warnings?: unknown }): TaskTestOutcome {
  const warnings = Array.isArray(body.warnings) ? body.warnings.filter((w): w is string => typeof w === 'string') : [];
  return { result: body.result ?? null, warnings };
}

export type PdlSyntax = { ok: true } | { ok: false; message: string; line?: number; column?: number };

function enc(s: string): string {
  return encodeURIComponent(s);
}

function base64UrlDecode(s: string): string {
  const b64 = s.replaceAll('-', '+').replaceAll('_', '/');
  return decodeURIComponent(Array.from(atob(b64), (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''));
}

/** Some JSON bodies are labelled text/plain (spec: Conventions): parse by content, not by label. */
async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  return text === '' ? undefined : JSON.parse(text);
}

async function apiError(method: string, path: string, res: Response): Promise<WeirApiError> {
  let parsed: unknown;
  try {
    parsed = await readJson(res);
  } catch {
    // no JSON body (401, 403)
  }
  return new WeirApiError(method, path, res.status, readErrorBody(res.status, parsed));
}

/** `?a=1&b=x&b=y`: each defined value, arrays as repeated parameters; empty when there is none. */
function queryString(query: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
