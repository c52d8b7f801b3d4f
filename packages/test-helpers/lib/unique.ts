import { randomBytes } from 'node:crypto';

/** A topic prefix no other test uses, so each test sees only its own Weir topics. */
export function uniqueTopicPrefix(label = 't'): string {
  return `weirtest_${label}_${randomBytes(4).toString('hex')}`;
}
