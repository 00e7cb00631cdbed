/**
 * A seeded generator of numbers in [0, 1) (mulberry32): small, fast and the same on every
 * platform, so a synthetic catalogue, a benchmark's mix or a property test is the same every run
 * and a failure names a seed that reproduces it.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
