/**
 * A list field whose values must be picked from known ids (an APPLY_RULES task's `rules`: rule ids).
 * `options` is undefined while the known ids load: nothing is checked then.
 */

/** The values of `values` that are not among `options`, in order, each once (none while `options` loads). */
export function unknownValues(values: readonly string[], options: readonly string[] | undefined): string[] {
  if (options === undefined) return [];
  const known = new Set(options);
  return [...new Set(values.filter((v) => !known.has(v)))];
}

/** `` `a` ``, `` `a`, `b` ``: ids as the messages quote them. */
export const quoted = (ids: readonly string[]): string => ids.map((id) => `\`${id}\``).join(', ');

/**
 * A change of the field (a value picked, typed then Enter or comma, pasted, removed): the values kept
 * and, when typed text names no known id, the message saying so. Values already in the field stay
 * (an old record may name an id that no longer exists: it is reported, not dropped); only new ones
 * are checked.
 */
export function pickListChange(
  previous: readonly string[],
  next: readonly string[],
  options: readonly string[] | undefined,
  what: string,
): { value: string[]; refused: string | undefined } {
  const before = new Set(previous);
  const refused = unknownValues(
    next.filter((v) => !before.has(v)),
    options,
  );
  if (refused.length === 0) return { value: [...next], refused: undefined };
  const value = next.filter((v) => !refused.includes(v));
  return {
    value,
    refused:
      refused.length === 1
        ? `No ${what} has the id ${quoted(refused)}: pick a ${what} from the list`
        : `No ${what} has the ids ${quoted(refused)}: pick ${what}s from the list`,
  };
}

/** The message under a field that names unknown ids (an old record), or undefined when all exist. */
export function missingText(values: readonly string[], options: readonly string[] | undefined, what: string) {
  const missing = unknownValues(values, options);
  if (missing.length === 0) return undefined;
  return missing.length === 1
    ? `The ${what} ${quoted(missing)} does not exist: remove it or pick another`
    : `The ${what}s ${quoted(missing)} do not exist: remove them or pick others`;
}
