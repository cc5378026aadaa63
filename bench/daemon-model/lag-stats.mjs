/** Lag figures of the daemon-model benchmark: count, p50, p99 and max of a list of ms. */
const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

export function summarize(xs) {
  if (xs.length === 0) return { n: 0, p50: null, p99: null, max: null };
  const sorted = Float64Array.from(xs).sort();
  return { n: xs.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: quantile(sorted, 1) };
}
