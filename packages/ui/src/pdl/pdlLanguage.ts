import { autocompletion, type Completion, type CompletionContext } from '@codemirror/autocomplete';
import { linter, type Diagnostic } from '@codemirror/lint';
import type { Extension, Text } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { RangeSetBuilder } from '@codemirror/state';
// The PDL package's own lexer and vocabulary: the editor colours exactly what the parser reads.
import { commands, functionNames, keywords, lex, TokenKind } from '@weir/pdl';
import { pdlLint, type PdlLintSource } from './pdlLint.ts';

const marks = {
  keyword: Decoration.mark({ class: 'pdl-keyword' }),
  command: Decoration.mark({ class: 'pdl-command' }),
  function: Decoration.mark({ class: 'pdl-function' }),
  string: Decoration.mark({ class: 'pdl-string' }),
  number: Decoration.mark({ class: 'pdl-number' }),
  operator: Decoration.mark({ class: 'pdl-operator' }),
  field: Decoration.mark({ class: 'pdl-field' }),
};

function decorate(doc: Text): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  let tokens;
  try {
    tokens = lex(doc.toString(), 100_000);
  } catch {
    return builder.finish(); // a lexical error: the linter shows it
  }
  tokens.forEach((t, i) => {
    if (t.kind === TokenKind.EOF || t.end <= t.start) return;
    let mark;
    if (t.kind === TokenKind.String) mark = marks.string;
    else if (t.kind === TokenKind.Number || t.kind === TokenKind.Duration) mark = marks.number;
    else if (t.kind === TokenKind.Name) {
      const word = t.bare ? t.text : '';
      if (keywords.has(word) || keywords.has(word.toUpperCase())) mark = marks.keyword;
      else if (commands.has(word) && (i === 0 || tokens[i - 1]!.kind === TokenKind.Pipe)) mark = marks.command;
      else if (functionNames.has(word) && tokens[i + 1]?.kind === TokenKind.LParen) mark = marks.function;
      else mark = marks.field;
    } else mark = marks.operator;
    builder.add(t.start, t.end, mark);
  });
  return builder.finish();
}

const highlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorate(view.state.doc);
    }
    update(u: ViewUpdate) {
      if (u.docChanged) this.decorations = decorate(u.state.doc);
    }
  },
  { decorations: (v) => v.decorations },
);

/** Colours from Mantine's variables, so light and dark themes both keep their contrast. */
const theme = EditorView.theme({
  '&': {
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: '4px',
    fontSize: '14px',
    backgroundColor: 'var(--mantine-color-body)',
    color: 'var(--mantine-color-text)',
  },
  '.cm-content': {
    fontFamily: 'var(--mantine-font-family-monospace)',
    minHeight: '120px',
    caretColor: 'var(--mantine-color-text)',
  },
  '.cm-gutters': { backgroundColor: 'var(--mantine-color-body)', color: 'var(--weir-muted-text)', border: 'none' },
  '.pdl-keyword': { color: 'var(--weir-pdl-keyword)', fontWeight: '600' },
  '.pdl-command': { color: 'var(--weir-pdl-command)', fontWeight: '600' },
  '.pdl-function': { color: 'var(--weir-pdl-function)' },
  '.pdl-string': { color: 'var(--weir-pdl-string)' },
  '.pdl-number': { color: 'var(--weir-pdl-number)' },
  '.pdl-operator': { color: 'var(--weir-pdl-operator)' },
  '.pdl-field': { color: 'var(--mantine-color-text)' },
  '.cm-tooltip': { backgroundColor: 'var(--mantine-color-body)', color: 'var(--mantine-color-text)' },
});

export interface PdlHelpers {
  /** Field names seen in recent events, and lookup ids, for completion. */
  readonly fields: () => readonly string[];
  readonly lookups: () => readonly string[];
  /** The syntax endpoint: ok, or an error at a 1-based line and column. */
  readonly check: (
    text: string,
  ) => Promise<{ ok: true } | { ok: false; message: string; line?: number; column?: number }>;
  /** Told of every finished check (tests and the page show the state). */
  readonly onChecked?: (result: { ok: boolean; message?: string; line?: number; column?: number }) => void;
  /** The lint endpoint with the editor's sample: its warnings while typing (pdlLint.ts). */
  readonly lint?: PdlLintSource;
}

function complete(helpers: PdlHelpers) {
  return (context: CompletionContext) => {
    const word = context.matchBefore(/[\w.:-]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    const before = context.state.doc.sliceString(0, word.from).trimEnd();
    const afterPipe = before === '' || before.endsWith('|');
    const options: Completion[] = [
      ...[...commands].map((c) => ({ label: c, type: 'keyword', detail: 'command', boost: afterPipe ? 10 : -10 })),
      ...[...keywords].map((k) => ({ label: k, type: 'keyword' })),
      ...[...functionNames].map((f) => ({ label: f, type: 'function', apply: `${f}(`, detail: 'function' })),
      ...helpers.fields().map((f) => ({ label: f, type: 'variable', detail: 'field' })),
      ...helpers.lookups().map((l) => ({ label: l, type: 'constant', detail: 'lookup' })),
    ];
    return { from: word.from, options, validFor: /^[\w.:-]*$/ };
  };
}

function lineColumnToPos(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.min(Math.max(1, line), doc.lines));
  return Math.min(l.from + Math.max(0, column - 1), l.to);
}

/** Live validation: the syntax endpoint's error at its line and column, 250 ms after typing stops. */
function validation(helpers: PdlHelpers): Extension {
  return linter(
    async (view) => {
      const text = view.state.doc.toString();
      if (text.trim() === '') return [];
      let result;
      try {
        result = await helpers.check(text);
      } catch (err) {
        return [{ from: 0, to: 0, severity: 'warning', message: `could not check: ${(err as Error).message}` }];
      }
      helpers.onChecked?.(result.ok ? { ok: true } : result);
      if (result.ok) return [];
      const doc = view.state.doc;
      let from = result.line ? lineColumnToPos(doc, result.line, result.column ?? 1) : 0;
      let to = Math.min(doc.length, Math.max(from + 1, doc.lineAt(from).to));
      // At the end of a line or of the input (e.g. "a value is missing"): mark the character before.
      if (to <= from && from > doc.lineAt(from).from) [from, to] = [from - 1, from];
      const d: Diagnostic = { from, to, severity: 'error', message: result.message };
      return [d];
    },
    { delay: 250 },
  );
}

export function pdlExtensions(helpers: PdlHelpers): Extension[] {
  return [
    highlighter,
    theme,
    autocompletion({ override: [complete(helpers)] }),
    validation(helpers),
    ...(helpers.lint === undefined ? [] : [pdlLint(helpers.lint)]),
  ];
}
