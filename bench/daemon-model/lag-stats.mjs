/** Lag figures of the daemon-model benchmark: count, p50, p99 and max of a list of ms. */
const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

export function summarize(xs) {
  if (xs.length === 0) return { n: 0, p50: null, p99: null, max: null };
  const sorted = Float64Array.from(xs).sort();
  return { n: xs.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: quantile(sorted, 1) };
}

/**
 * The overview client's state lags: each `session.state` event it received against the last
 * turn start or end this process wrote for that session before it (a flip counts once; an event
 * whose last flip is of the other kind, or already counted, is unmatched — as in bench-clients).
 */
export function withOverviewLags(report, flips, indexOf) {
  const lags = { busy: [], idle: [] };
  let unmatched = 0;
  const used = new Set();
  for (const ev of report.received) {
    const list = flips[indexOf(ev)] ?? [];
    const at = BigInt(ev.at);
    let flip = null;
    for (let j = list.length - 1; j >= 0; j--) if (list[j].t <= at) { flip = list[j]; break; }
    if (flip && flip.kind === ev.kind && !used.has(flip)) {
      used.add(flip);
      lags[ev.kind].push(Number(at - flip.t) / 1e6);
    } else unmatched += 1;
  }
  return { ...report, busy: summarize(lags.busy), idle: summarize(lags.idle), state: summarize([...lags.busy, ...lags.idle]), unmatched };
}
