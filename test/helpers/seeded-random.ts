/** A seeded generator of numbers in [0, 1) (an LCG), so a randomised test replays from its printed seed. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}
