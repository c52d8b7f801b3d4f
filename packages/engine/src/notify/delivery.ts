import { createHash } from 'node:crypto';
import { parseRetryAfter, retryDelayMs, type RetryPolicy } from './backoff.ts';
import type { NotifiedAlert } from './matcher.ts';
import { signature } from './signature.ts';
import type { WebhookOutcome, WebhookRequest } from './webhook.ts';

/** The notifier as a delivery needs it. */
export interface DeliveryTarget {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
  readonly ca: readonly string[] | undefined;
}

/** What a delivery uses of the world (real HTTPS and timers in the service; plain functions in tests). */
export interface DeliveryPorts {
  post(request: WebhookRequest): Promise<WebhookOutcome>;
  /** Resolves after `ms`, or rejects when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  now(): number;
  /** Waits for the notifier's rate limit before each attempt (ms to wait; 0: none). */
  rateLimit(notifier: string): number;
  /** An attempt failed and another follows after `waitMs`. */
  retried(notifier: string, attempt: number, error: string, waitMs: number): void;
}

export type DeliveryResult =
  | { readonly sent: true; readonly attempts: number }
  | { readonly sent: false; readonly attempts: number; readonly lastError: string };

/** The delivery id (`X-Weir-Delivery`): the same for every attempt and every redelivery of this alert to this notifier. */
export function deliveryId(notifier: string, alert: string): string {
  return createHash('sha256').update(`${notifier}\n${alert}`).digest('hex').slice(0, 32);
}

/** The request body: the notifier, the delivery id and the alert record as read from the alerts topic. */
export function webhookBody(notifier: string, alert: NotifiedAlert): Buffer {
  return Buffer.from(
    JSON.stringify({ notifier, delivery: deliveryId(notifier, alert.id), alert: alert.record }),
    'utf8',
  );
}

/** Whether an outcome is worth another attempt: network errors, 408, 429 and 5xx. */
function retryable(outcome: WebhookOutcome): boolean {
  if ('error' in outcome) return true;
  return outcome.status === 408 || outcome.status === 429 || outcome.status >= 500;
}

/**
 * Delivers one alert to one notifier: up to `policy.maxAttempts` HTTPS POSTs, each after the
 * notifier's rate limit allows it, with exponential backoff (and `Retry-After`) between them. A 2xx
 * answer is sent; any other 3xx or 4xx but 408 and 429 ends the delivery at once (the receiver
 * refuses the request as such). Rejects only when `signal` aborts (the node stops, or the partition
 * moved to another node): the record's offset is then not committed, so it is delivered again.
 */
export async function deliver(
  target: DeliveryTarget,
  alert: NotifiedAlert,
  policy: RetryPolicy & { readonly timeoutMs: number },
  ports: DeliveryPorts,
  signal: AbortSignal,
): Promise<DeliveryResult> {
  const body = webhookBody(target.id, alert);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'weir-notify',
    'x-weir-signature': signature(target.secret, body),
    'x-weir-alert-id': alert.id,
    'x-weir-delivery': deliveryId(target.id, alert.id),
  };
  let lastError = '';
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    signal.throwIfAborted();
    const wait = ports.rateLimit(target.id);
    if (wait > 0) await ports.sleep(wait, signal);
    const outcome = await ports.post({
      url: target.url,
      body,
      headers,
      ca: target.ca,
      timeoutMs: policy.timeoutMs,
      signal,
    });
    signal.throwIfAborted();
    if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) return { sent: true, attempts: attempt };
    lastError = 'error' in outcome ? outcome.error : outcome.detail;
    if (!retryable(outcome)) return { sent: false, attempts: attempt, lastError };
    if (attempt === policy.maxAttempts) break;
    const retryAfter = 'status' in outcome ? parseRetryAfter(outcome.retryAfter, ports.now()) : undefined;
    const delay = retryDelayMs(policy, attempt, retryAfter);
    ports.retried(target.id, attempt, lastError, delay);
    await ports.sleep(delay, signal);
  }
  return { sent: false, attempts: policy.maxAttempts, lastError };
}
