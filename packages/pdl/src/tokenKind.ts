/** The kinds of token the PDL lexer produces (pdl.md, "Lexical rules"). */
export const TokenKind = {
  EOF: '<EOF>',
  Pipe: '|',
  DoublePipe: '||',
  LParen: '(',
  RParen: ')',
  LBracket: '[',
  RBracket: ']',
  Comma: ',',
  Eq: '=',
  NotEq: '!=',
  Contains: '?=',
  Matches: '~=',
  Lt: '<',
  Gt: '>',
  Le: '<=',
  Ge: '>=',
  Plus: '+',
  Minus: '-',
  Star: '*',
  Slash: '/',
  /** A field path, a keyword, a command word or a function name. */
  Name: 'Name',
  String: 'String',
  Number: 'Number',
  /** A number immediately followed by a unit letter: `5m`. */
  Duration: 'Duration',
} as const;

export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

export interface Token {
  readonly kind: TokenKind;
  /** Offset of the first character. */
  readonly start: number;
  /** Offset after the last character. */
  readonly end: number;
  /** 1-based line and column of `start`. */
  readonly line: number;
  readonly column: number;
  /** The source text of the token. */
  readonly text: string;
  /** Name: the path segments; a bare name is one unquoted segment (only those can be keywords). */
  readonly segments?: readonly string[];
  readonly bare?: boolean;
  /** String: the text after escapes, and the offsets in it of asterisks written `\*`. */
  readonly value?: string;
  readonly literalStars?: readonly number[];
  /** String: written `i"..."`, a case-insensitive literal. */
  readonly caseless?: boolean;
  /** Number and Duration: the numeric value; Duration also its unit letter. */
  readonly number?: number;
  readonly unit?: string;
}
