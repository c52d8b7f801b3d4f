import { fail } from './errors.ts';
import { and, not, or } from './pdlText.ts';

/**
 * A Sigma condition (`selection and not 1 of filter_*`) over the converted search identifiers:
 * `not` binds tightest, then `and`, then `or`; parentheses group; `1 of` / `all of` take a name,
 * a name with `*` wildcards, or `them` (every identifier not starting with `_`).
 */
export function convertCondition(condition: string, selections: ReadonlyMap<string, string>, path: string): string {
  if (condition.includes('|')) {
    fail(
      path,
      `the aggregation expression '${condition.slice(condition.indexOf('|')).trim()}' is the deprecated Sigma v1 form; write a correlation rule instead`,
    );
  }
  const tokens = condition.match(/\(|\)|[^\s()]+/g) ?? [];
  if (tokens.length === 0) fail(path, 'the condition is empty');
  let pos = 0;
  const peek = (): string | undefined => tokens[pos];
  const lower = (t: string | undefined): string | undefined => t?.toLowerCase();

  const named = (name: string): string => {
    const query = selections.get(name);
    if (query === undefined)
      return fail(path, `the condition names '${name}', which is not a search identifier of the detection`);
    return query;
  };
  const matching = (pattern: string): string[] => {
    if (pattern === 'them') return [...selections.keys()].filter((k) => !k.startsWith('_')).map(named);
    const re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, (c) => `\\${c}`).replace(/\*/g, '.*')}$`);
    const names = [...selections.keys()].filter((k) => re.test(k));
    if (names.length === 0) fail(path, `'${pattern}' in the condition matches no search identifier`);
    return names.map(named);
  };

  const parseOr = (): string => {
    const parts = [parseAnd()];
    while (lower(peek()) === 'or') {
      pos++;
      parts.push(parseAnd());
    }
    return or(parts);
  };
  const parseAnd = (): string => {
    const parts = [parseNot()];
    while (lower(peek()) === 'and') {
      pos++;
      parts.push(parseNot());
    }
    return and(parts);
  };
  const parseNot = (): string => {
    if (lower(peek()) === 'not') {
      pos++;
      return not(parseNot());
    }
    return parseAtom();
  };
  const parseAtom = (): string => {
    const token = peek();
    if (token === undefined) return fail(path, `the condition '${condition}' ends too early`);
    pos++;
    if (token === '(') {
      const inner = parseOr();
      if (peek() !== ')') fail(path, `the condition '${condition}' lacks a closing parenthesis`);
      pos++;
      return inner;
    }
    if (token === '1' || lower(token) === 'all') {
      if (lower(peek()) !== 'of') fail(path, `expected 'of' after '${token}' in the condition`);
      pos++;
      const target = peek();
      if (target === undefined || target === '(' || target === ')')
        return fail(path, `expected a name or 'them' after '${token} of'`);
      pos++;
      const parts = matching(target);
      return lower(token) === 'all' ? and(parts) : or(parts);
    }
    if (/^\d+$/.test(token) && lower(peek()) === 'of')
      fail(path, `'${token} of' is not Sigma: only '1 of' and 'all of' exist`);
    if (['and', 'or', 'not', 'of', ')', 'near'].includes(lower(token) as string)) {
      return fail(
        path,
        lower(token) === 'near'
          ? "'near' is the deprecated Sigma v1 form; write a temporal correlation rule instead"
          : `unexpected '${token}' in the condition`,
      );
    }
    if (token.includes('*')) return or(matching(token));
    return named(token);
  };

  const query = parseOr();
  if (pos < tokens.length) fail(path, `unexpected '${tokens[pos] as string}' in the condition`);
  return query;
}
