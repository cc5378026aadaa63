/**
 * A recorded Claude Code session for the lab's one-off recording scripts (record-rewind.mjs,
 * record-subview.mjs): started as the crawler starts it (crawl-start.mjs), idle and past its
 * start-up hints, with the helpers those scripts share.
 * @module
 */
import fs from 'node:fs';
import { crawlSessions } from './crawl-start.mjs';
import { settle } from '../lib/crawl.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts Claude Code 2.1.332 at 80×24 recording to `out` and waits until it is idle and its
 * start-up hints went (15 s). Returns the session `s`, `write(keys, gapMs)` (one input event per
 * key), `look(what)` (settles, then prints what specterm reports and the screen's last rows),
 * `lookAtSizes(label)` (look, resized to 60×20, 200×50 and back to 80×24), `settle()`
 * and `stop()` (ends the session and prints the input events' times, for a `.labels.json`).
 */
export async function startRecordedSession(name, out) {
  const { start } = await crawlSessions([], '2.1.332');
  const live = await start({ name, cols: 80, rows: 24 }, { record: out });
  const s = live.s;
  const write = async (keys, gap = 150) => { for (const k of keys) { s.driver.dispatch({ kind: 'pty_write', data: k }); await sleep(gap); } };
  const look = async (what) => {
    await settle(s);
    await sleep(1500);
    const v = s.driver.getCurrentView();
    console.log(`--- ${what}: ${v?.state.id} ${JSON.stringify(v?.modal)}`);
    console.log(s.driver.snapshot().split('\n').filter((r) => r.trim()).slice(-16).join('\n'));
  };
  // The crawler's sizes: looked at in 80×24, resized while open to 60×20 and 200×50, then back.
  const lookAtSizes = async (first) => {
    for (const size of [null, { cols: 60, rows: 20 }, { cols: 200, rows: 50 }, { cols: 80, rows: 24 }]) {
      if (size) s.driver.dispatch({ kind: 'resize', ...size });
      await look(size ? `${size.cols}x${size.rows}` : first);
    }
  };
  const stop = async () => {
    await live.stop();
    const inputs = fs.readFileSync(out, 'utf8').split('\n').slice(1).filter((l) => l.includes('"i"')).map((l) => JSON.parse(l));
    console.log(`inputs (ms data): ${inputs.map(([t, , d]) => `${Math.round(t * 1000)} ${JSON.stringify(d)}`).join(' | ')}`);
  };
  await s.waitForState('idle', 90_000);
  await sleep(15_000);
  return { s, write, look, lookAtSizes, settle: (opts) => settle(s, opts), stop };
}
