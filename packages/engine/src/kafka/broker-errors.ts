import { domainError, type DomainError } from '../core/errors.ts';

/**
 * Reading @platformatic/kafka errors: a broker refusal arrives as a ProtocolError (with the broker's
 * `serverErrorMessage`) nested in MultipleErrors/ResponseError wrappers; an unreachable cluster as a
 * NetworkError/TimeoutError.
 */
interface KafkaErrorLike {
  readonly message?: string;
  readonly code?: string;
  readonly apiId?: string;
  readonly serverErrorMessage?: string | null;
  readonly errors?: readonly unknown[];
  readonly cause?: unknown;
}

function* walk(error: unknown, depth = 0): Generator<KafkaErrorLike> {
  if (typeof error !== 'object' || error === null || depth > 8) return;
  const e = error as KafkaErrorLike;
  yield e;
  for (const inner of e.errors ?? []) yield* walk(inner, depth + 1);
  if (e.cause) yield* walk(e.cause, depth + 1);
}

/** The broker's protocol error id (`TOPIC_ALREADY_EXISTS`, `INVALID_CONFIG`, …) inside an error, if any. */
export function brokerErrorId(error: unknown): string | undefined {
  for (const e of walk(error)) if (e.apiId) return e.apiId;
  return undefined;
}

/**
 * The broker's own words for a refusal (e.g. `Topic 'a' already exists.`), else the protocol
 * error's description, else the client's message.
 */
export function brokerReason(error: unknown): string {
  let description: string | undefined;
  for (const e of walk(error)) {
    if (e.apiId) {
      if (e.serverErrorMessage) return e.serverErrorMessage;
      description ??= `${e.message ?? e.apiId} (${e.apiId})`;
    }
  }
  return description ?? (error instanceof Error ? error.message : String(error));
}

/** The broker refused to create a topic because it exists (e.g. another node created it first). */
export function isTopicAlreadyExists(error: unknown): boolean {
  return brokerErrorId(error) === 'TOPIC_ALREADY_EXISTS';
}

/** The broker refused a record (or batch) over the topic's `max.message.bytes`. */
export function isRecordTooLarge(error: unknown): boolean {
  const id = brokerErrorId(error);
  return id === 'MESSAGE_TOO_LARGE' || id === 'RECORD_LIST_TOO_LARGE';
}

export function isUnknownTopic(error: unknown): boolean {
  for (const e of walk(error)) {
    if (e.apiId === 'UNKNOWN_TOPIC_OR_PARTITION' || e.apiId === 'UNKNOWN_TOPIC_ID') return true;
    if (e.code === 'PLT_KFK_USER' && /^Unknown topic /.test(e.message ?? '')) return true;
  }
  return false;
}

/** True when the cluster could not be reached at all (as opposed to refusing a request). */
export function isUnreachable(error: unknown): boolean {
  for (const e of walk(error)) if (e.code === 'PLT_KFK_NETWORK' || e.code === 'PLT_KFK_TIMEOUT') return true;
  return false;
}

/** 503 naming the cluster when it cannot be reached; otherwise the error unchanged (→ 500). */
export function unavailableOr(error: unknown, bootstrap: string): DomainError | unknown {
  if (isUnreachable(error))
    return domainError('UNAVAILABLE', `The Kafka cluster (${bootstrap}) is not reachable: ${brokerReason(error)}`);
  return error;
}
