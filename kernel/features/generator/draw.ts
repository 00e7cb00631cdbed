/** Random draws for the generator, from one seeded stream (kernel/seeded-random.ts): a seed fixes every part. */
import { seededRandom } from "../../seeded-random.ts";

export class Draw {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = seededRandom(seed);
  }

  /** in [lo, hi) */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.#next();
  }

  /** an integer in [lo, hi] */
  int(lo: number, hi: number): number {
    return Math.min(hi, lo + Math.floor((hi - lo + 1) * this.#next()));
  }

  chance(p: number): boolean {
    return this.#next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Draw.pick: nothing to pick from");
    return items[this.int(0, items.length - 1)] as T;
  }
}

/** The seed of part `index` of a set: parts of one set differ, and part i is the same whoever asks for it. */
export function partSeed(setSeed: number, index: number): number {
  return (Math.imul(setSeed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0;
}
