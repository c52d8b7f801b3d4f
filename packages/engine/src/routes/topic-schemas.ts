import { consumeBody as consumeBodyOf } from '@weir/contract';
import type { Settings } from '../config/settings.ts';
import type { StartPosition } from '../kafka/start-position.ts';

/**
 * The topic request schemas are the API's contract (@weir/contract: topics.ts); here, what needs
 * the node: the consume maxima from its settings, and the start position the fields ask for.
 */

/** The consume body with this node's maxima. */
export function consumeBody(settings: Settings) {
  return consumeBodyOf({
    maxEvents: settings.get('weir.topics.consume.max-events'),
    maxTimeoutSeconds: settings.get('weir.topics.consume.max-timeout-seconds'),
  });
}

export interface StartFields {
  readonly offset?: 'earliest' | 'latest';
  readonly startOffset?: number;
  readonly startTimestamp?: number;
  readonly partition?: number;
}

/** The start position the fields ask for; more than one of offset/startOffset/startTimestamp → an error text. */
export function startPosition(fields: StartFields, fallback: 'earliest' | 'latest'): StartPosition | string {
  const given = (['offset', 'startOffset', 'startTimestamp'] as const).filter((k) => fields[k] !== undefined);
  if (given.length > 1) return `give at most one of offset, startOffset and startTimestamp (found ${given.join(', ')})`;
  const partition = fields.partition;
  const on = partition === undefined ? {} : { partition };
  if (fields.startOffset !== undefined) return { kind: 'offset', offset: fields.startOffset, ...on };
  if (fields.startTimestamp !== undefined) return { kind: 'timestamp', timestamp: fields.startTimestamp, ...on };
  return { kind: fields.offset ?? fallback, ...on };
}
