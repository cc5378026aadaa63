/**
 * Ground-truth labels for a crawler recording, from the crawler's own keystrokes in the cast (its
 * `"i"` events): the CLI is idle for the 2 s before the command is typed, waits for a person from
 * 1.5 s after the command's Enter (a CLI draws its dialog within that) until the Esc that closes
 * it, and is idle again from 1.5 s after that Esc. The time between is left unlabelled: it is the
 * CLI's to take, not a reading to judge.
 *
 * @module
 */

const DRAW_MS = 1500;
const IDLE_BEFORE_MS = 2000;

/**
 * The labels of one crawler recording (asciicast v2 text), or null when its keystrokes are not a
 * crawler's (the target's keys not typed, or no Esc after them).
 * @param {string} castText
 * @param {string} source  who recorded it, for the labels' `source` line
 * @param {string | string[]} keys  the keys that open the target, one input event each (a string:
 *   each character one key, `/model\r`; an array: a chord's keys, `['\u001b[D']` one key); keys
 *   typed before them (a start-up gate answered) are passed over
 */
export function crawlLabels(castText, source, keys) {
  const inputs = [];
  let end = 0;
  for (const line of castText.split('\n').slice(1)) {
    if (!line.trim()) continue;
    const [t, kind, data] = JSON.parse(line);
    end = Math.max(end, t);
    if (kind === 'i') inputs.push({ ms: Math.round(t * 1000), data });
  }
  const escAt = inputs.findLastIndex((i) => i.data === '\u001b');
  // The target's keys, one input event per key (the crawler writes them so), ending before the closing Esc.
  const wanted = typeof keys === 'string' ? [...keys] : keys;
  let at = -1;
  for (let i = escAt - wanted.length; i >= 0 && at < 0; i--) if (wanted.every((k, j) => inputs[i + j].data === k)) at = i;
  if (escAt <= 0 || at < 0) return null;
  const typed = inputs[at].ms;
  const opened = inputs[at + wanted.length - 1].ms;
  const closed = inputs[escAt].ms;
  const intervals = [{ from_ms: Math.max(0, typed - IDLE_BEFORE_MS), to_ms: typed, status: 'idle' }];
  if (closed > opened + DRAW_MS) intervals.push({ from_ms: opened + DRAW_MS, to_ms: closed, status: 'approval' });
  const endMs = Math.round(end * 1000);
  if (endMs > closed + DRAW_MS) intervals.push({ from_ms: closed + DRAW_MS, to_ms: endMs, status: 'idle' });
  return {
    source: `${source}: the crawler's keystrokes in the recording (lab/lib/crawl-labels.mjs): idle before the target is typed, approval from 1.5 s after it opens until Esc, idle from 1.5 s after Esc`,
    intervals,
  };
}
