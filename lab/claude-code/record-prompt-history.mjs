/**
 * `node lab/claude-code/record-prompt-history.mjs OUT.cast`: records Claude Code's Ctrl+R
 * 'Search prompts' with prompts in its history (specs/claude-code/recordings/prompt-history): the
 * crawler's sessions start with an empty history, so three commands are typed first (each is a
 * history entry), then Ctrl+R at 80×24, resized to 60×20 and 200×50, and Esc. Prints what specterm
 * reported at each size.
 */
import { crawlSessions } from './crawl-start.mjs';
import { settle } from '../lib/crawl.mjs';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { start } = await crawlSessions([], '2.1.332');
const live = await start({ name: 'ctrl-r-history', cols: 80, rows: 24 }, { record: process.argv[2] });
const s = live.s;
const write = async (keys, gap = 80) => { for (const k of keys) { s.driver.dispatch({ kind: 'pty_write', data: k }); await sleep(gap); } };
await s.waitForState('idle', 90_000);
await sleep(15_000);
for (const cmd of ['/color', '/context', '/cost']) {
  await write([...cmd]); await settle(s, { quietMs: 500, maxMs: 3000 }); await write(['\r']);
  await settle(s, { quietMs: 800, maxMs: 6000 }); await write(['\u001b']); await settle(s); await write(['\u0015']); await settle(s);
}
await write(['\u0012'], 150);
for (const size of [null, { cols: 60, rows: 20 }, { cols: 200, rows: 50 }, { cols: 80, rows: 24 }]) {
  if (size) s.driver.dispatch({ kind: 'resize', ...size });
  await settle(s);
  await sleep(1000);
  const v = s.driver.getCurrentView();
  console.log(`--- ${size ? `${size.cols}x${size.rows}` : '80x24'}: ${v?.state.id} ${JSON.stringify(v?.modal)}`);
  console.log(s.driver.snapshot().split('\n').filter((r) => r.trim()).slice(-14).join('\n'));
}
await write(['\u001b']);
await settle(s);
await live.stop();
process.exit(0);
