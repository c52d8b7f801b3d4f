import { lowerCase } from './query.ts';
import type { Key, Need } from './requiredConditions.ts';
import { indexedFieldId } from './requiredConditions.ts';
import { getPath, isCanonicalNumeral } from './values.ts';

/**
 * The guards of RuleIndex: per rule, up to two more `field = value` conditions it requires
 * besides its indexed key (a log source such as `EventID = 1` when the rule is indexed by its
 * image), checked on the rules the event walk found; a guard field is read once per event.
 */

/**
 * A field some rules require to equal a value besides their indexed key (a log-source condition
 * such as `EventID = 1` when the rule is indexed by its image): the values, numbered per field.
 */
interface GuardField {
  readonly id: string;
  readonly path: readonly string[];
  readonly key: string | undefined;
  readonly caseless: boolean;
  readonly strings: Map<string, number>;
  readonly numbers: Map<number, number>;
  readonly booleans: Map<boolean, number>;
}

/** The event's value meets every guard of the field (an array: any element could). */
const ANY_GUARD = -2;

function guardValueId(guard: GuardField, value: string | number | boolean): number {
  const map = (
    typeof value === 'string' ? guard.strings : typeof value === 'number' ? guard.numbers : guard.booleans
  ) as Map<typeof value, number>;
  let id = map.get(value);
  if (id === undefined) map.set(value, (id = guard.strings.size + guard.numbers.size + guard.booleans.size));
  return id;
}

/**
 * A rule's guards: of the exact `field = value` keys it requires at its top level (under AND) on
 * other fields than its indexed keys, the two of lowest rank (one per field): fewest rules share
 * them, or, once learned, fewest events met them. Sound: the rule cannot match an event whose
 * field (not an array) does not equal the value.
 */
export function guardsOf(need: Need, chosen: readonly Key[], rank: (key: Key) => number): Key[] {
  const fields = new Set(chosen.map(indexedFieldId));
  const keys: Key[] = [];
  const visit = (n: Need): void => {
    if (n.kind === 'all') {
      for (const part of n.parts) visit(part);
      return;
    }
    if (n.kind !== 'key' || n.key.kind !== 'equals') return;
    const field = indexedFieldId(n.key);
    if (fields.has(field)) return;
    fields.add(field);
    keys.push(n.key);
  };
  visit(need);
  return keys.sort((a, b) => rank(a) - rank(b)).slice(0, 2);
}

/** The guards of the rules at positions 0 … size - 1, and what the current event holds of their fields. */
export class RuleGuards {
  /** The guard fields. */
  #guards: GuardField[] = [];
  // per rule, its first and second guard: the field (-1: none) and the number of the value
  readonly #guardField: Int32Array;
  readonly #guardValue: Int32Array;
  readonly #guardField2: Int32Array;
  readonly #guardValue2: Int32Array;

  constructor(size: number) {
    this.#guardField = new Int32Array(size);
    this.#guardValue = new Int32Array(size);
    this.#guardField2 = new Int32Array(size);
    this.#guardValue2 = new Int32Array(size);
    this.clear();
  }

  /** How many guard fields there are. */
  get fieldCount(): number {
    return this.#guards.length;
  }

  /** Forgets every guard (before the rules' keys are chosen again). */
  clear(): void {
    this.#guards = [];
    this.#guardField.fill(-1);
    this.#guardField2.fill(-1);
    this.#guardReadScratch = this.#metScratchA = this.#metScratchB = undefined;
  }

  /** Sets the guards of the rule at `position` (at most two, on different fields: guardsOf). */
  set(position: number, guards: readonly Key[]): void {
    guards.forEach((guard, n) => {
      const gid = indexedFieldId(guard);
      let g = this.#guards.findIndex((x) => x.id === gid);
      if (g === -1) {
        g = this.#guards.length;
        this.#guards.push({
          id: gid,
          path: guard.path,
          key: guard.path.length === 1 ? guard.path[0] : undefined,
          caseless: guard.caseless,
          strings: new Map(),
          numbers: new Map(),
          booleans: new Map(),
        });
      }
      (n === 0 ? this.#guardField : this.#guardField2)[position] = g;
      (n === 0 ? this.#guardValue : this.#guardValue2)[position] = guardValueId(
        this.#guards[g] as GuardField,
        guard.value,
      );
    });
  }

  /** Forgets which guard fields were read for which epoch (when the caller's epoch starts again from 1). */
  resetEpoch(): void {
    this.#guardReadScratch?.fill(0);
  }

  /** Drops the found rules (positions in `found[0 … count)`, read for `epoch`) whose guard (a required `field = value`) the event does not meet. */
  apply(event: Record<string, unknown>, found: Int32Array, count: number, epoch: number): number {
    const field = this.#guardField;
    const wanted = this.#guardValue;
    const field2 = this.#guardField2;
    const wanted2 = this.#guardValue2;
    const metA = this.#metA;
    const metB = this.#metB;
    const readAt = this.#guardRead;
    let kept = 0;
    for (let c = 0; c < count; c++) {
      const position = found[c] as number;
      const g = field[position] as number;
      if (g !== -1) {
        // a guard field is read once per event, when a found rule first needs it
        if (readAt[g] !== epoch) this.#readGuard(g, event, epoch);
        const a = metA[g] as number;
        if (a !== ANY_GUARD && a !== wanted[position] && metB[g] !== wanted[position]) continue;
        const g2 = field2[position] as number;
        if (g2 !== -1) {
          if (readAt[g2] !== epoch) this.#readGuard(g2, event, epoch);
          const a2 = metA[g2] as number;
          if (a2 !== ANY_GUARD && a2 !== wanted2[position] && metB[g2] !== wanted2[position]) continue;
        }
      }
      found[kept++] = position;
    }
    return kept;
  }

  /** Which value of guard field `g` the event holds (metA, and metB for a numeral's number). */
  #readGuard(g: number, event: Record<string, unknown>, epoch: number): void {
    const guard = this.#guards[g] as GuardField;
    const metA = this.#metA;
    const metB = this.#metB;
    this.#guardRead[g] = epoch;
    const value = guard.key === undefined ? getPath(event, guard.path) : event[guard.key];
    metA[g] = -1;
    metB[g] = -1;
    switch (typeof value) {
      case 'string': {
        const text = guard.caseless ? lowerCase(value) : value;
        metA[g] = guard.strings.get(text) ?? -1;
        if (!guard.caseless && guard.numbers.size !== 0 && isCanonicalNumeral(value))
          metB[g] = guard.numbers.get(Number(value)) ?? -1;
        break;
      }
      case 'number':
        metA[g] = guard.numbers.get(value) ?? -1;
        break;
      case 'boolean':
        metA[g] = guard.booleans.get(value) ?? -1;
        break;
      default:
        // an array (any element may meet it) or an object: the guard cannot decide, keep the rules
        if (value !== undefined && value !== null && typeof value === 'object') metA[g] = metB[g] = ANY_GUARD;
    }
  }

  get #guardRead(): Uint32Array {
    return (this.#guardReadScratch ??= new Uint32Array(this.#guards.length));
  }

  #guardReadScratch: Uint32Array | undefined;

  get #metA(): Int32Array {
    return (this.#metScratchA ??= new Int32Array(this.#guards.length));
  }

  get #metB(): Int32Array {
    return (this.#metScratchB ??= new Int32Array(this.#guards.length));
  }

  #metScratchA: Int32Array | undefined;
  #metScratchB: Int32Array | undefined;
}
