/**
 * The multi-pattern text search of RuleIndex: the substring keys of one field in one Aho-Corasick
 * automaton (a DFA over character classes), so an event string is read once, one table step per
 * character, however many keys (hundreds of Sigma `contains` on a command line) the field has.
 * Prefix keys are a trie read from the string's start, suffix keys reversed and read from its
 * end, each only as far as some key continues (a few characters, not the whole string). The
 * automaton also takes a prefix as a key after a start mark and a suffix as a key before an end
 * mark (the text fed as start mark, characters, end mark), so one automaton can hold all kinds.
 */

/** A text key and the positions (rules, or keys while learning) it stands for. */
export interface TextKey {
  readonly kind: 'prefix' | 'suffix' | 'contains';
  /** Never empty; lower case in a caseless automaton. */
  readonly text: string;
  readonly positions: readonly number[];
}

/** Character classes: 0 for a character no key holds, then the start and end marks. */
const OTHER = 0;
const START = 1;
const END = 2;

/** Above this many table cells (states × classes, 4 bytes each) the keys go to several automata (automataOf). */
export const MAX_CELLS = 1 << 22;

export class TextAutomaton {
  /** Whether keys are lower case and event text is compared lower-cased (`toLowerCase`). */
  readonly caseless: boolean;
  /** How many states (for tests and sizing). */
  readonly states: number;
  /** How many character classes. */
  readonly classes: number;
  /** The class of each character below 128 (in a caseless automaton, A–Z as a–z). */
  readonly #ascii: Uint16Array;
  /** The class of the other characters keys hold. */
  readonly #other: Map<number, number>;
  /** The next state: `delta[state * classes + class]` (at most 65,535 states). */
  readonly #delta: Uint16Array;
  /** 1 for a state where keys end (its `outputs` entry is set). */
  readonly #final: Uint8Array;
  /** Per state, the position lists of the keys that end there (its own and its fail states'), or undefined. */
  readonly #outputs: (readonly (readonly number[])[] | undefined)[];

  /**
   * Whether the last `scan` met a character from 128 on (then the caller scans the automata of
   * keys with such characters too: TextSearch).
   */
  sawWide = false;

  /** The automaton of the keys, or undefined when it would have more than 65,535 states or `maxCells` cells. */
  static build(keys: readonly TextKey[], caseless: boolean, maxCells = MAX_CELLS): TextAutomaton | undefined {
    const ascii = new Uint16Array(128);
    const other = new Map<number, number>();
    let classes = 3;
    const classOf = (code: number): number => {
      if (code < 128) return ascii[code] === 0 ? (ascii[code] = classes++) : (ascii[code] as number);
      let c = other.get(code);
      if (c === undefined) other.set(code, (c = classes++));
      return c;
    };
    // the trie: per state its children by class, and the position lists of the keys ending there
    const children: Map<number, number>[] = [new Map()];
    const own: (readonly number[])[][] = [[]];
    for (const key of keys) {
      let state = 0;
      const step = (cls: number): void => {
        let next = (children[state] as Map<number, number>).get(cls);
        if (next === undefined) {
          next = children.length;
          children.push(new Map());
          own.push([]);
          (children[state] as Map<number, number>).set(cls, next);
        }
        state = next;
      };
      if (key.kind === 'prefix') step(START);
      for (let i = 0; i < key.text.length; i++) step(classOf(key.text.charCodeAt(i)));
      if (key.kind === 'suffix') step(END);
      (own[state] as (readonly number[])[]).push(key.positions);
    }
    if (caseless)
      for (let code = 65; code <= 90; code++) if (ascii[code + 32] !== 0) ascii[code] = ascii[code + 32] as number;
    const states = children.length;
    if (states > 0xffff || states * classes > maxCells) return undefined;
    // states numbered breadth first: the shallow states, where a scan spends most steps, share
    // the first rows of the table (cache lines); a state's fail state is shallower, so its row is
    // complete before the state's
    const order = [0];
    for (let q = 0; q < order.length; q++)
      for (const child of (children[order[q] as number] as Map<number, number>).values()) order.push(child);
    const id = new Int32Array(states);
    order.forEach((state, n) => (id[state] = n));
    const delta = new Uint16Array(states * classes);
    const final = new Uint8Array(states);
    const fail = new Int32Array(states);
    const outputs: (readonly (readonly number[])[] | undefined)[] = new Array(states).fill(undefined);
    for (let state = 0; state < states; state++) {
      const trie = order[state] as number;
      const row = state * classes;
      const failRow = (fail[state] as number) * classes;
      const lists = [
        ...(own[trie] as (readonly number[])[]),
        ...(state === 0 ? [] : (outputs[fail[state] as number] ?? [])),
      ];
      outputs[state] = lists.length === 0 ? undefined : lists;
      final[state] = lists.length === 0 ? 0 : 1;
      const next = children[trie] as Map<number, number>;
      for (let cls = 0; cls < classes; cls++) {
        const child = next.get(cls);
        if (child === undefined) {
          delta[row + cls] = state === 0 ? 0 : (delta[failRow + cls] as number);
          continue;
        }
        const numbered = id[child] as number;
        delta[row + cls] = numbered;
        fail[numbered] = state === 0 ? 0 : (delta[failRow + cls] as number);
      }
    }
    return new TextAutomaton(caseless, states, classes, ascii, other, delta, final, outputs);
  }

  private constructor(
    caseless: boolean,
    states: number,
    classes: number,
    ascii: Uint16Array,
    other: Map<number, number>,
    delta: Uint16Array,
    final: Uint8Array,
    outputs: (readonly (readonly number[])[] | undefined)[],
  ) {
    this.caseless = caseless;
    this.states = states;
    this.classes = classes;
    this.#ascii = ascii;
    this.#other = other;
    this.#delta = delta;
    this.#final = final;
    this.#outputs = outputs;
  }

  /**
   * The same automaton standing for other positions: each key's position list mapped by
   * `positionsOf` (a key whose list maps to nothing or to an empty list is no longer met). The
   * transition table is shared, not built again: RuleIndex builds the automata of every key its
   * rules could be indexed by once and takes the chosen keys' from them. Undefined when no key is left.
   */
  project(positionsOf: (list: readonly number[]) => readonly number[] | undefined): TextAutomaton | undefined {
    const mapped = new Map<readonly number[], readonly number[] | undefined>();
    const final = new Uint8Array(this.states);
    const outputs: (readonly (readonly number[])[] | undefined)[] = new Array(this.states).fill(undefined);
    let left = false;
    for (let state = 0; state < this.states; state++) {
      const lists = this.#outputs[state];
      if (lists === undefined) continue;
      const kept: (readonly number[])[] = [];
      for (const list of lists) {
        let positions = mapped.get(list);
        if (positions === undefined && !mapped.has(list)) mapped.set(list, (positions = positionsOf(list)));
        if (positions !== undefined && positions.length > 0) kept.push(positions);
      }
      if (kept.length === 0) continue;
      outputs[state] = kept;
      final[state] = 1;
      left = true;
    }
    if (!left) return undefined;
    return new TextAutomaton(
      this.caseless,
      this.states,
      this.classes,
      this.#ascii,
      this.#other,
      this.#delta,
      final,
      outputs,
    );
  }

  /**
   * Appends to `into`, from `count` on, the positions of the keys `text` meets (each once: those
   * marked with `epoch` are skipped, the others marked); returns the new count. A caseless
   * automaton reads A–Z as a–z and, at the first other character from 128 on, reads the whole
   * text again lower-cased (`toLowerCase`, which can change a string's length), so it meets
   * exactly the keys the lower-cased text holds. Allocation-free for ASCII text.
   */
  scan(text: string, into: Int32Array, count: number, marks: Uint32Array, epoch: number): number {
    const ascii = this.#ascii;
    const delta = this.#delta;
    const final = this.#final;
    const classes = this.classes;
    let wide = false;
    let state = delta[START] as number;
    if (final[state] !== 0) count = this.#add(state, into, count, marks, epoch);
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      let cls: number;
      if (code < 128) cls = ascii[code] as number;
      else if (this.caseless) return this.#scanLowered(text, into, count, marks, epoch);
      else {
        wide = true;
        cls = this.#other.get(code) ?? OTHER;
      }
      state = delta[state * classes + cls] as number;
      if (final[state] !== 0) count = this.#add(state, into, count, marks, epoch);
    }
    state = delta[state * classes + END] as number;
    if (final[state] !== 0) count = this.#add(state, into, count, marks, epoch);
    this.sawWide = wide;
    return count;
  }

  /** `scan` of the lower-cased text, every character by its own class. */
  #scanLowered(text: string, into: Int32Array, count: number, marks: Uint32Array, epoch: number): number {
    const lower = text.toLowerCase();
    const ascii = this.#ascii;
    const delta = this.#delta;
    const final = this.#final;
    const classes = this.classes;
    let state = delta[START] as number;
    if (final[state] !== 0) count = this.#add(state, into, count, marks, epoch);
    for (let i = 0; i < lower.length; i++) {
      const code = lower.charCodeAt(i);
      const cls = code < 128 ? (ascii[code] as number) : (this.#other.get(code) ?? OTHER);
      state = delta[state * classes + cls] as number;
      if (final[state] !== 0) count = this.#add(state, into, count, marks, epoch);
    }
    state = delta[state * classes + END] as number;
    if (final[state] !== 0) count = this.#add(state, into, count, marks, epoch);
    this.sawWide = true;
    return count;
  }

  /**
   * For an automaton of prefix keys only: reads the text from its start (`fromEnd`: from its end,
   * for the reversed suffix keys) and stops at the first character no key continues with (every
   * key begins with the start mark, so the automaton is then back at its root for good). Caseless,
   * at the first character from 128 on, it reads the lower-cased text instead.
   */
  scanAnchored(
    text: string,
    fromEnd: boolean,
    into: Int32Array,
    count: number,
    marks: Uint32Array,
    epoch: number,
  ): number {
    const ascii = this.#ascii;
    const delta = this.#delta;
    const final = this.#final;
    const classes = this.classes;
    const last = text.length - 1;
    let state = delta[START] as number;
    for (let i = 0; i <= last; i++) {
      const code = text.charCodeAt(fromEnd ? last - i : i);
      let cls: number;
      if (code < 128) cls = ascii[code] as number;
      else if (this.caseless) return this.#anchoredLowered(text.toLowerCase(), fromEnd, into, count, marks, epoch);
      else cls = this.#other.get(code) ?? OTHER;
      state = delta[state * classes + cls] as number;
      if (state === 0) return count;
      if (final[state] !== 0) count = this.#add(state, into, count, marks, epoch);
    }
    return count;
  }

  #anchoredLowered(
    lower: string,
    fromEnd: boolean,
    into: Int32Array,
    count: number,
    marks: Uint32Array,
    epoch: number,
  ): number {
    const ascii = this.#ascii;
    const delta = this.#delta;
    const final = this.#final;
    const classes = this.classes;
    const last = lower.length - 1;
    let state = delta[START] as number;
    for (let i = 0; i <= last; i++) {
      const code = lower.charCodeAt(fromEnd ? last - i : i);
      const cls = code < 128 ? (ascii[code] as number) : (this.#other.get(code) ?? OTHER);
      state = delta[state * classes + cls] as number;
      if (state === 0) return count;
      if (final[state] !== 0) count = this.#add(state, into, count, marks, epoch);
    }
    return count;
  }

  #add(state: number, into: Int32Array, count: number, marks: Uint32Array, epoch: number): number {
    const lists = this.#outputs[state] as readonly (readonly number[])[];
    for (let l = 0; l < lists.length; l++) {
      const list = lists[l] as readonly number[];
      for (let i = 0; i < list.length; i++) {
        const position = list[i] as number;
        if (marks[position] !== epoch) {
          marks[position] = epoch;
          into[count++] = position;
        }
      }
    }
    return count;
  }
}

/** The text's UTF-16 code units in reverse order (as `endsWith` compares them). */
function reverse(text: string): string {
  let out = '';
  for (let i = text.length - 1; i >= 0; i--) out += text[i];
  return out;
}

/** Keys with a character from 128 on: an emoji, a homoglyph (met only by text holding one). */
const isWide = (key: TextKey): boolean => {
  for (let i = 0; i < key.text.length; i++) if (key.text.charCodeAt(i) >= 128) return true;
  return false;
};

/**
 * The keys in as few automata as keep each under `maxCells` cells and 65,535 states (halving the
 * key list until each part fits; a key gets an automaton of its own whatever `maxCells`). A key
 * too long for 65,535 states goes to `plain`.
 */
function automataOf(keys: readonly TextKey[], caseless: boolean, maxCells: number, plain: TextKey[]): TextAutomaton[] {
  if (keys.length === 0) return [];
  const built = TextAutomaton.build(keys, caseless, keys.length === 1 ? Infinity : maxCells);
  if (built !== undefined) return [built];
  if (keys.length === 1) {
    plain.push(keys[0] as TextKey);
    return [];
  }
  const half = Math.ceil(keys.length / 2);
  return [
    ...automataOf(keys.slice(0, half), caseless, maxCells, plain),
    ...automataOf(keys.slice(half), caseless, maxCells, plain),
  ];
}

/** What a TextSearch is made of (TextSearch.project). */
interface TextSearchParts {
  readonly narrow: readonly TextAutomaton[];
  readonly wide: readonly TextAutomaton[];
  readonly prefixes: readonly TextAutomaton[];
  readonly suffixes: readonly TextAutomaton[];
  readonly plain: readonly TextKey[];
}

/**
 * A field's text keys as automata: those of ASCII keys, read for every string, and those of keys
 * with wider characters (hundreds of emoji and homoglyphs would multiply the ASCII automaton's
 * classes), read only for a string that holds a character from 128 on.
 */
export class TextSearch {
  /** The automata of the substring keys without wider characters. */
  readonly narrow: readonly TextAutomaton[];
  /** The automata of the substring keys with wider characters. */
  readonly wide: readonly TextAutomaton[];
  /** The automata of the prefix keys, read from a string's start until no key can follow. */
  readonly prefixes: readonly TextAutomaton[];
  /** The automata of the suffix keys reversed, read from a string's end until no key can follow. */
  readonly suffixes: readonly TextAutomaton[];
  /** Keys too long for an automaton (over 65,534 characters: only from a hand-built AST), tested one by one. */
  readonly plain: readonly TextKey[];
  readonly #caseless: boolean;

  /** The automata of `keys` (or, given the parts, a TextSearch of them: `project`). */
  constructor(keys: readonly TextKey[] | TextSearchParts, caseless: boolean, maxCells = MAX_CELLS) {
    this.#caseless = caseless;
    if (!Array.isArray(keys)) {
      const parts = keys as TextSearchParts;
      this.narrow = parts.narrow;
      this.wide = parts.wide;
      this.prefixes = parts.prefixes;
      this.suffixes = parts.suffixes;
      this.plain = parts.plain;
      return;
    }
    const plain: TextKey[] = [];
    const contains = keys.filter((k) => k.kind === 'contains');
    this.narrow = automataOf(
      contains.filter((k) => !isWide(k)),
      caseless,
      maxCells,
      plain,
    );
    this.wide = automataOf(contains.filter(isWide), caseless, maxCells, plain);
    this.prefixes = automataOf(
      keys.filter((k) => k.kind === 'prefix'),
      caseless,
      maxCells,
      plain,
    );
    const suffixes = keys.filter((k) => k.kind === 'suffix');
    const reversed = suffixes.map((k): TextKey => ({ kind: 'prefix', text: reverse(k.text), positions: k.positions }));
    const tooLong: TextKey[] = [];
    this.suffixes = automataOf(reversed, caseless, maxCells, tooLong);
    for (const key of tooLong) plain.push(suffixes[reversed.indexOf(key)] as TextKey);
    this.plain = plain;
  }

  /**
   * The same search standing for other positions (TextAutomaton.project): the automata are shared;
   * those left without keys are dropped. Undefined when no key is left.
   */
  project(positionsOf: (list: readonly number[]) => readonly number[] | undefined): TextSearch | undefined {
    const automata = (list: readonly TextAutomaton[]): TextAutomaton[] =>
      list.map((a) => a.project(positionsOf)).filter((a) => a !== undefined);
    const plain: TextKey[] = [];
    for (const key of this.plain) {
      const positions = positionsOf(key.positions);
      if (positions !== undefined && positions.length > 0) plain.push({ ...key, positions });
    }
    const parts: TextSearchParts = {
      narrow: automata(this.narrow),
      wide: automata(this.wide),
      prefixes: automata(this.prefixes),
      suffixes: automata(this.suffixes),
      plain,
    };
    const empty =
      parts.narrow.length + parts.wide.length + parts.prefixes.length + parts.suffixes.length + plain.length === 0;
    return empty ? undefined : new TextSearch(parts, this.#caseless);
  }

  /** The positions of the keys the text meets (TextAutomaton.scan's contract), from every automaton it could meet. */
  scan(text: string, into: Int32Array, count: number, marks: Uint32Array, epoch: number): number {
    const prefixes = this.prefixes;
    for (let a = 0; a < prefixes.length; a++)
      count = (prefixes[a] as TextAutomaton).scanAnchored(text, false, into, count, marks, epoch);
    const suffixes = this.suffixes;
    for (let a = 0; a < suffixes.length; a++)
      count = (suffixes[a] as TextAutomaton).scanAnchored(text, true, into, count, marks, epoch);
    const narrow = this.narrow;
    // without substring automata, the wide ones are read for every string (they are rare)
    let wide = narrow.length === 0;
    for (let a = 0; a < narrow.length; a++) {
      const automaton = narrow[a] as TextAutomaton;
      count = automaton.scan(text, into, count, marks, epoch);
      wide = automaton.sawWide;
    }
    const wideAutomata = this.wide;
    if (wide)
      for (let a = 0; a < wideAutomata.length; a++)
        count = (wideAutomata[a] as TextAutomaton).scan(text, into, count, marks, epoch);
    if (this.plain.length !== 0) count = this.#scanPlain(text, into, count, marks, epoch);
    return count;
  }

  #scanPlain(text: string, into: Int32Array, count: number, marks: Uint32Array, epoch: number): number {
    const t = this.#caseless ? text.toLowerCase() : text;
    for (const key of this.plain) {
      const met =
        key.kind === 'prefix'
          ? t.startsWith(key.text)
          : key.kind === 'suffix'
            ? t.endsWith(key.text)
            : t.includes(key.text);
      if (!met) continue;
      for (const position of key.positions)
        if (marks[position] !== epoch) {
          marks[position] = epoch;
          into[count++] = position;
        }
    }
    return count;
  }
}
