/**
 * Kafka's rules for topic names (org.apache.kafka.common.internals.Topic): 1 to 249 of ASCII
 * letters, digits, `.`, `_` and `-`, and neither `.` nor `..`. The one place they are written: the
 * topic endpoints check them with topicNameProblem, the topology schema with topicNameSchema.
 */
export const maxTopicNameLength = 249;
const legalCharacters = /^[a-zA-Z0-9._-]+$/;

/** Why a topic name is not legal for Kafka, or undefined when it is. */
export function topicNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name === '.' || name === '..') return `must not be '.' or '..'`;
  if (name.length > maxTopicNameLength)
    return `is ${name.length} characters long; at most ${maxTopicNameLength} are allowed`;
  if (!legalCharacters.test(name))
    return `'${name}' contains characters other than ASCII letters, digits, '.', '_' and '-'`;
  return undefined;
}

/** The same rule as JSON Schema. */
export const topicNameSchema = {
  type: 'string',
  pattern: `^[A-Za-z0-9._-]{1,${maxTopicNameLength}}$`,
  not: { enum: ['.', '..'] },
} as const;
