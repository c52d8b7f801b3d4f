/**
 * The short name of a serde class, what fits a form field: `org.apache.kafka.common.serialization.Serdes$StringSerde`
 * → `StringSerde` (after the last `.` and `$`); a name without either is itself.
 */
export function shortSerde(className: string): string {
  return className.slice(Math.max(className.lastIndexOf('.'), className.lastIndexOf('$')) + 1) || className;
}

/** A serde select's options: the short name shown, the full class name its value (the one stored). */
export function serdeOptions(classNames: readonly string[]): { value: string; label: string }[] {
  return classNames.map((value) => ({ value, label: shortSerde(value) }));
}
