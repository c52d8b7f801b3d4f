/**
 * The fuzz suite's seeded random numbers (sfc32): one seed, printed by every test, reproduces every
 * input (`WEIR_FUZZ_SEED=<seed> npm run test:fuzz`).
 */
export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    this.#a = 0x9e3779b9;
    this.#b = 0x243f6a88;
    this.#c = 0xb7e15162;
    this.#d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A child generator for one named part (a route, a file kind): adding inputs elsewhere does not change its inputs. */
  fork(name: string): Rng {
    let h = this.seed ^ 0x811c9dc5;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
    return new Rng(h);
  }
}

/** The run's seed: WEIR_FUZZ_SEED, else a fresh one (printed so that a failure can be replayed). */
export function fuzzSeed(): number {
  const given = process.env.WEIR_FUZZ_SEED;
  if (given !== undefined && given !== '') {
    const n = Number(given);
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff)
      throw new Error(`WEIR_FUZZ_SEED must be an integer 0..4294967295, found '${given}'`);
    return n;
  }
  return Math.floor(Math.random() * 0xffffffff);
}
