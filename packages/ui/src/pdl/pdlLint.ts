import { linter, type Action, type Diagnostic } from '@codemirror/lint';
import { StateEffect, type Extension, type Text } from '@codemirror/state';
import { ViewPlugin, type EditorView } from '@codemirror/view';
import type { LintDiagnosticBody, LintResult } from '@weir/contract';

/**
 * Lint warnings while typing (docs/detection-as-code.md, "Lint", "In the rule editor"): the text
 * goes to POST /api/lint/pdl with the editor's sample a moment after the last keystroke, and the
 * answer shows in the gutter and as underlines, with a button for a diagnostic's safe fix. Errors
 * (what saving refuses) are the syntax check's; from the lint, an error shows only when it offers a
 * fix (an unknown lookup with its close one).
 */
export interface PdlLintSource {
  /** Lints a text with the editor's current sample (events, or a topic the server reads). */
  readonly lint: (text: string) => Promise<LintResult>;
  /** Calls `listener` when the sample changes (the text is then linted again); returns the unsubscribe. */
  readonly onSampleChange?: (listener: () => void) => () => void;
}

/** What the never-seen-field check compares with: the editor's sample events, or a topic the server reads. */
export type LintSample = readonly unknown[] | { readonly topic: string; readonly sample?: number } | undefined;

/**
 * The editor's sample for the lint: the test panel's events when it has some (what the rule is
 * tested with), else the picked topic (the server reads its `count` most recent records, at most
 * 1000), else none (no field is checked).
 */
export function lintSampleOf(events: readonly unknown[], topic: string | null, count: number): LintSample {
  if (events.length > 0) return events;
  if (topic) return Number.isInteger(count) && count >= 1 ? { topic, sample: Math.min(count, 1000) } : { topic };
  return undefined;
}

/** How long after the last keystroke the text is linted. */
export const lintDelayMs = 300;

/** The offset of a 1-based line and column in a text (clamped to the text). */
export function offsetAt(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.min(Math.max(1, line), doc.lines));
  return Math.min(l.from + Math.max(0, column - 1), l.to);
}

/** A fix's edits as changes of `doc` (the linted text), in order, none overlapping; undefined when they do not fit it. */
export function fixChanges(
  doc: Text,
  fix: NonNullable<LintDiagnosticBody['fix']>,
): { from: number; to: number; insert: string }[] | undefined {
  const changes = fix.edits
    .map((e) => ({
      from: offsetAt(doc, e.range.line, e.range.column),
      to: offsetAt(doc, e.range.endLine, e.range.endColumn),
      insert: e.text,
    }))
    .sort((a, b) => a.from - b.from);
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    if (c.to < c.from || (i > 0 && c.from < changes[i - 1]!.to)) return undefined;
  }
  return changes;
}

/**
 * The lint answer for `doc` as the editor's diagnostics: warnings and infos, and errors that offer
 * a fix; each at its range (a position-less one at the start), its fix an action that applies only
 * to the text it was computed for (after any change the next lint answers anew).
 */
export function editorDiagnostics(doc: Text, result: LintResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of result.diagnostics) {
    if (d.severity === 'error' && d.fix === undefined) continue;
    const from = d.line > 0 ? offsetAt(doc, d.line, d.column) : 0;
    let to = d.line > 0 && d.endLine !== undefined ? offsetAt(doc, d.endLine, d.endColumn ?? d.column) : from;
    if (to < from) to = from;
    const changes = d.fix === undefined ? undefined : fixChanges(doc, d.fix);
    const actions: Action[] =
      changes === undefined
        ? []
        : [
            {
              name: d.fix!.title,
              apply: (view: EditorView) => {
                if (view.state.doc.eq(doc)) view.dispatch({ changes, userEvent: 'input.lint-fix' });
              },
            },
          ];
    out.push({
      from,
      to,
      severity: d.severity,
      source: d.code,
      message: d.message,
      ...(actions.length ? { actions } : {}),
    });
  }
  return out;
}

const resample = StateEffect.define<null>();

/**
 * The linter's source: the editor's text linted, its answer as diagnostics; none when the text
 * changed while the answer came (a stale answer is never shown; CodeMirror's linter drops it too).
 */
export function lintRun(source: PdlLintSource): (view: Pick<EditorView, 'state'>) => Promise<Diagnostic[]> {
  return async (view) => {
    const doc = view.state.doc;
    if (doc.toString().trim() === '') return [];
    let result: LintResult;
    try {
      result = await source.lint(doc.toString());
    } catch (err) {
      return [
        {
          from: 0,
          to: 0,
          severity: 'info',
          source: 'lint',
          message: `could not lint: ${(err as Error).message}`,
        },
      ];
    }
    // A stale answer: the text changed while it was computed (CodeMirror also drops it).
    if (!view.state.doc.eq(doc)) return [];
    return editorDiagnostics(doc, result);
  };
}

/** The editor extension: the lint source (debounced by CodeMirror's linter) and its re-run when the sample changes. */
export function pdlLint(source: PdlLintSource): Extension {
  const extensions: Extension[] = [
    linter(lintRun(source), {
      delay: lintDelayMs,
      needsRefresh: (u) => u.transactions.some((t) => t.effects.some((e) => e.is(resample))),
    }),
  ];
  const subscribe = source.onSampleChange;
  if (subscribe !== undefined)
    extensions.push(
      ViewPlugin.define((view) => {
        const stop = subscribe(() => view.dispatch({ effects: resample.of(null) }));
        return { destroy: stop };
      }),
    );
  return extensions;
}
