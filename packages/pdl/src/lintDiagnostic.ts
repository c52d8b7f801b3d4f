/**
 * What the linters of Weir (PDL here, Sigma in @weir/sigma) return: a diagnostic with a stable code,
 * a severity, a position (1-based line and column; the end is exclusive) and, where applying it cannot
 * change what the author meant beyond the diagnostic's point, a fix as text edits.
 * docs/detection-as-code.md, "Lint", lists every code.
 */
export type LintSeverity = 'error' | 'warning' | 'info';

export interface LintRange {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface LintEdit {
  readonly range: LintRange;
  readonly text: string;
}

export interface LintFix {
  readonly title: string;
  readonly edits: readonly LintEdit[];
}

export interface LintDiagnostic {
  readonly code: string;
  readonly severity: LintSeverity;
  readonly message: string;
  /** 1-based; 0 when the source has no text (a task given as JSON): then `path` says where. */
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  /** Where in a structured document (`definition.rules[1]`, `detection.sel.Image|contains`), when it is one. */
  readonly path?: string;
  readonly fix?: LintFix;
}

/** The line and column of an offset of a text (both 1-based). */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** The range of the offsets [start, end) of a text. */
export function rangeAt(text: string, start: number, end: number): LintRange {
  const from = positionAt(text, start);
  const to = positionAt(text, end);
  return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column };
}

/** A diagnostic at a range. */
export function diagnosticAt(
  range: LintRange,
  code: string,
  severity: LintSeverity,
  message: string,
  fix?: LintFix,
): LintDiagnostic {
  return { code, severity, message, ...range, ...(fix === undefined ? {} : { fix }) };
}

/** Edit distance (Levenshtein), stopping early once it exceeds `max` (then max + 1). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The one candidate a name was most likely meant to be ("did you mean"): the same name in another
 * case, else the single closest one within an edit distance of 2 (1 for names of 4 characters or
 * fewer). Undefined when none is close or two are equally close (then no fix is safe).
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const max = name.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = max + 1;
  let tie = false;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(name, candidate, max);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance && distance <= max) tie = true;
  }
  return tie || bestDistance > max ? undefined : best;
}

/** Diagnostics in reading order (line, column), errors before warnings at the same place. */
export function sortDiagnostics<T extends LintDiagnostic>(diagnostics: readonly T[]): T[] {
  const rank = { error: 0, warning: 1, info: 2 } as const;
  return [...diagnostics].sort(
    (a, b) =>
      a.line - b.line ||
      a.column - b.column ||
      rank[a.severity] - rank[b.severity] ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}
