import { PdlSyntaxError } from './errors.ts';
import { TokenKind } from './tokenKind.ts';
import type { Token } from './tokenKind.ts';

/**
 * Turns PDL text into tokens (pdl.md, "Lexical rules"). A field path is one Name token whose
 * segments are bare (`a-b:c`) or backquoted (`` `odd field` ``) and joined by dots.
 */
export function lex(source: string, maxTokens: number): Token[] {
  const lexer = new Lexer(source);
  const tokens: Token[] = [];
  for (;;) {
    const token = lexer.next();
    tokens.push(token);
    if (token.kind === TokenKind.EOF) return tokens;
    if (tokens.length > maxTokens) {
      throw new PdlSyntaxError(
        `too many tokens: the limit is ${maxTokens}`,
        {
          offset: token.start,
          line: token.line,
          column: token.column,
          source,
        },
        'LIMIT',
      );
    }
  }
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isNameStart(c: number): boolean {
  return isLetter(c) || c === 95; // _
}
function isNameContinue(c: number): boolean {
  return isNameStart(c) || isDigit(c) || c === 45 || c === 58; // - :
}

const BACKQUOTE = 96;
const DURATION_UNITS = 'smhdw';

class Lexer {
  private readonly source: string;
  private pos = 0;
  private line = 1;
  private lineStart = 0;

  constructor(source: string) {
    this.source = source;
  }

  next(): Token {
    this.skipWhitespace();
    const start = this.pos;
    const line = this.line;
    const column = start - this.lineStart + 1;
    const src = this.source;
    if (start >= src.length) return { kind: TokenKind.EOF, start, end: start, line, column, text: '' };
    const c = src.charCodeAt(start);
    const simple = (kind: Token['kind'], length: number): Token => {
      this.pos = start + length;
      return { kind, start, end: this.pos, line, column, text: src.slice(start, this.pos) };
    };
    const nextChar = src.charCodeAt(start + 1);
    switch (c) {
      case 124: // |
        return nextChar === 124 ? simple(TokenKind.DoublePipe, 2) : simple(TokenKind.Pipe, 1);
      case 40:
        return simple(TokenKind.LParen, 1);
      case 41:
        return simple(TokenKind.RParen, 1);
      case 91:
        return simple(TokenKind.LBracket, 1);
      case 93:
        return simple(TokenKind.RBracket, 1);
      case 44:
        return simple(TokenKind.Comma, 1);
      case 61: // =
        return simple(TokenKind.Eq, 1);
      case 33: // !
        if (nextChar === 61) return simple(TokenKind.NotEq, 2);
        break;
      case 63: // ?
        if (nextChar === 61) return simple(TokenKind.Contains, 2);
        break;
      case 126: // ~
        if (nextChar === 61) return simple(TokenKind.Matches, 2);
        break;
      case 60: // <
        return nextChar === 61 ? simple(TokenKind.Le, 2) : simple(TokenKind.Lt, 1);
      case 62: // >
        return nextChar === 61 ? simple(TokenKind.Ge, 2) : simple(TokenKind.Gt, 1);
      case 43:
        return simple(TokenKind.Plus, 1);
      case 45:
        return simple(TokenKind.Minus, 1);
      case 42:
        return simple(TokenKind.Star, 1);
      case 47:
        return simple(TokenKind.Slash, 1);
      case 34: // "
        return this.readString(start, line, column, 'plain');
      case 105: // i"...": a case-insensitive string literal
        if (nextChar === 34) return this.readString(start, line, column, 'caseless');
        break;
      case 92: // \
        // The original read `\"` outside a string as a quote (its rule files double-escape: `group_name=\"evil*\"`).
        if (nextChar === 34) return this.readString(start, line, column, 'backslashQuoted');
        break;
      default:
        if (isDigit(c)) return this.readNumber(start, line, column);
        if (isNameStart(c) || c === BACKQUOTE) return this.readName(start, line, column);
    }
    if (isNameStart(c)) return this.readName(start, line, column);
    const ch = String.fromCodePoint(src.codePointAt(start) ?? c);
    const hint =
      c === 33
        ? " (did you mean '!='?)"
        : c === 63
          ? " (did you mean '?='?)"
          : c === 126
            ? " (did you mean '~='?)"
            : '';
    const code = ch.codePointAt(0) ?? c;
    const named = code < 33 || code > 126 ? ` (U+${code.toString(16).toUpperCase().padStart(4, '0')})` : '';
    throw this.error(`unexpected character '${ch}'${named}${hint}`, start, line, column);
  }

  private error(detail: string, offset: number, line: number, column: number): PdlSyntaxError {
    return new PdlSyntaxError(detail, { offset, line, column, source: this.source });
  }

  private skipWhitespace(): void {
    const src = this.source;
    while (this.pos < src.length) {
      const c = src.charCodeAt(this.pos);
      if (c === 10) {
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
      } else if (c === 32 || c === 9 || c === 13 || c === 160) {
        // 160: a no-break space, as text copied from documentation has (the original's samples do)
        this.pos++;
      } else {
        return;
      }
    }
  }

  /**
   * String: `"..."` with `\"`, `\\` and `\*` escapes; any other backslash sequence is kept.
   * `i"..."` is case-insensitive. Opened by `\"` (backslashQuoted), it is closed by the next `\"`
   * and a bare `"` inside is a quote.
   */
  private readString(
    start: number,
    line: number,
    column: number,
    form: 'plain' | 'caseless' | 'backslashQuoted',
  ): Token {
    const src = this.source;
    const backslashQuoted = form === 'backslashQuoted';
    const caseless = form === 'caseless';
    let value = '';
    const literalStars: number[] = [];
    let i = start + (form === 'plain' ? 1 : 2);
    for (;;) {
      if (i >= src.length)
        throw this.error(
          `unterminated string, expected a closing '${backslashQuoted ? '\\"' : '"'}'`,
          start,
          line,
          column,
        );
      const c = src.charCodeAt(i);
      if (c === 34 && !backslashQuoted) break;
      if (c === 92 && i + 1 < src.length) {
        const n = src.charCodeAt(i + 1);
        if (n === 34 && backslashQuoted) {
          i++;
          break;
        }
        if (n === 34 || n === 92) {
          value += src[i + 1];
          i += 2;
          continue;
        }
        if (n === 42) {
          literalStars.push(value.length);
          value += '*';
          i += 2;
          continue;
        }
      }
      if (c === 10) {
        this.line++;
        this.lineStart = i + 1;
      }
      value += src[i];
      i++;
    }
    this.pos = i + 1;
    if (!backslashQuoted && src.charCodeAt(this.pos) === 34) {
      // `"a""b"`: no PDL has two strings in a row; a doubled quote meant as a quote is the likely cause.
      const at = this.position(this.pos);
      throw this.error(
        `a quote right after the string ${src.slice(start, this.pos)} closed it; write \\" for a quote inside a string`,
        this.pos,
        at.line,
        at.column,
      );
    }
    return {
      kind: TokenKind.String,
      start,
      end: this.pos,
      line,
      column,
      text: src.slice(start, this.pos),
      value,
      literalStars,
      ...(caseless ? { caseless } : {}),
    };
  }

  /** Number: digits [. digits] [e [+-] digits]; directly followed by a unit letter it is a Duration. */
  private readNumber(start: number, line: number, column: number): Token {
    const src = this.source;
    let i = start;
    while (isDigit(src.charCodeAt(i))) i++;
    let integer = true;
    if (src.charCodeAt(i) === 46 && isDigit(src.charCodeAt(i + 1))) {
      integer = false;
      i++;
      while (isDigit(src.charCodeAt(i))) i++;
    }
    const e = src.charCodeAt(i);
    if (e === 101 || e === 69) {
      const s = src.charCodeAt(i + 1);
      const j = s === 43 || s === 45 ? i + 2 : i + 1;
      if (isDigit(src.charCodeAt(j))) {
        integer = false;
        i = j;
        while (isDigit(src.charCodeAt(i))) i++;
      }
    }
    const numberText = src.slice(start, i);
    if (isNameStart(src.charCodeAt(i)) || isDigit(src.charCodeAt(i)) || src.charCodeAt(i) === 46) {
      let j = i;
      while (isNameContinue(src.charCodeAt(j)) || src.charCodeAt(j) === 46) j++;
      const text = src.slice(start, j);
      const unit = src.slice(i, j);
      if (integer && unit.length === 1 && DURATION_UNITS.includes(unit)) {
        this.pos = j;
        return { kind: TokenKind.Duration, start, end: j, line, column, text, number: Number(numberText), unit };
      }
      throw this.error(
        `invalid number or duration '${text}': a duration is an integer followed by s, m, h, d or w (5m)`,
        start,
        line,
        column,
      );
    }
    this.pos = i;
    return { kind: TokenKind.Number, start, end: i, line, column, text: numberText, number: Number(numberText) };
  }

  /** Name: segment ('.' segment)*, segment = [A-Za-z_][A-Za-z0-9_:-]* | `backquoted`. */
  private readName(start: number, line: number, column: number): Token {
    const src = this.source;
    const segments: string[] = [];
    let i = start;
    let quoted = false;
    for (;;) {
      const c = src.charCodeAt(i);
      if (c === BACKQUOTE) {
        quoted = true;
        let seg = '';
        let j = i + 1;
        for (;;) {
          if (j >= src.length || src.charCodeAt(j) === 10) {
            const pos = this.position(i);
            throw this.error("unterminated field name, expected a closing '`'", i, pos.line, pos.column);
          }
          const d = src.charCodeAt(j);
          if (d === BACKQUOTE) break;
          if (d === 92 && (src.charCodeAt(j + 1) === BACKQUOTE || src.charCodeAt(j + 1) === 92)) {
            seg += src[j + 1];
            j += 2;
            continue;
          }
          seg += src[j];
          j++;
        }
        if (seg === '') {
          const pos = this.position(i);
          throw this.error('empty field name in backquotes', i, pos.line, pos.column);
        }
        segments.push(seg);
        i = j + 1;
      } else {
        let j = i;
        while (isNameContinue(src.charCodeAt(j))) j++;
        segments.push(src.slice(i, j));
        i = j;
      }
      if (src.charCodeAt(i) !== 46) break;
      const after = src.charCodeAt(i + 1);
      if (!isNameStart(after) && after !== BACKQUOTE) {
        const pos = this.position(i + 1);
        const found = i + 1 >= src.length ? 'end of input' : `'${src[i + 1]}'`;
        throw this.error(`expected a field name after '.', found ${found}`, i + 1, pos.line, pos.column);
      }
      i++;
    }
    this.pos = i;
    return {
      kind: TokenKind.Name,
      start,
      end: i,
      line,
      column,
      text: src.slice(start, i),
      segments,
      bare: !quoted && segments.length === 1,
    };
  }

  private position(offset: number): { line: number; column: number } {
    // Offsets inside the current token never cross a newline except in strings.
    return { line: this.line, column: offset - this.lineStart + 1 };
  }
}
