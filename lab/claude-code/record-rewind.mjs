/**
 * `node lab/claude-code/record-rewind.mjs OUT.cast [/rewind|esc-esc]`: records Claude Code's rewind
 * list (`/rewind`, or Esc Esc at the empty prompt) with entries in it
 * (specs/claude-code/recordings/crawl-rewind, crawl-esc-esc). The target is opened first on the
 * fresh session (its first keys are the target's, so the crawl report counts the recording), then
 * closed; three commands are sent (each becomes an entry: its prompt over `No code changes`), and the
 * target is opened again at 80×24, resized to 60×20 and 200×50, and closed with Esc. Prints what
 * specterm reported at each step and the input events' times (for the `.labels.json`).
 */
import fs from 'node:fs';
import { crawlSessions } from './crawl-start.mjs';
import { settle } from '../lib/crawl.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const [out, which = '/rewind'] = process.argv.slice(2);
const opener = which === 'esc-esc' ? ['\u001b', '\u001b'] : [...which, '\r'];
const { start } = await crawlSessions([], '2.1.332');
const live = await start({ name: `rewind-${which.replace(/\W/g, '')}`, cols: 80, rows: 24 }, { record: out });
const s = live.s;
const write = async (keys, gap = 80) => { for (const k of keys) { s.driver.dispatch({ kind: 'pty_write', data: k }); await sleep(gap); } };
const look = async (what) => {
  await settle(s);
  await sleep(1500);
  const v = s.driver.getCurrentView();
  console.log(`--- ${what}: ${v?.state.id} ${JSON.stringify(v?.modal)}`);
  console.log(s.driver.snapshot().split('\n').filter((r) => r.trim()).slice(-16).join('\n'));
};
const close = async () => { await write(['\u001b']); await settle(s); await sleep(500); await write(['\u0015']); await settle(s); };

await s.waitForState('idle', 90_000);
await sleep(15_000);
await write(opener, 150);
await look('fresh session, 80x24');
await close();
for (const cmd of ['/recap', '/reload-plugins', '/reload-skills']) {
  await write([...cmd]); await settle(s, { quietMs: 500, maxMs: 3000 }); await write(['\r']);
  await settle(s, { quietMs: 800, maxMs: 6000 }); await write(['\u001b']); await settle(s); await write(['\u0015']); await settle(s);
}
await sleep(2500);
await write(opener, 150);
for (const size of [null, { cols: 60, rows: 20 }, { cols: 200, rows: 50 }, { cols: 80, rows: 24 }]) {
  if (size) s.driver.dispatch({ kind: 'resize', ...size });
  await look(size ? `${size.cols}x${size.rows}` : '80x24');
}
await write(['\u001b']);
await settle(s);
await sleep(2000);
await live.stop();
const inputs = fs.readFileSync(out, 'utf8').split('\n').slice(1).filter((l) => l.includes('"i"')).map((l) => JSON.parse(l));
console.log(`inputs (ms data): ${inputs.map(([t, , d]) => `${Math.round(t * 1000)} ${JSON.stringify(d)}`).join(' | ')}`);
process.exit(0);
