/**
 * `node lab/claude-code/record-rewind.mjs OUT.cast [/rewind|esc-esc] [N]`: records Claude Code's rewind
 * list (`/rewind`, or Esc Esc at the empty prompt) with entries in it
 * (specs/claude-code/recordings/crawl-rewind, crawl-esc-esc). The target is opened first on the
 * fresh session (its first keys are the target's, so the crawl report counts the recording), then
 * closed; N commands are sent (3; each becomes an entry: its prompt over `No code changes`), and the
 * target is opened again at 80×24, resized to 60×20 and 200×50, and closed with Esc. Prints what
 * specterm reported at each step and the input events' times (for the `.labels.json`).
 */
import { sleep, startRecordedSession } from './recorded-session.mjs';

const [out, which = '/rewind', count = '3'] = process.argv.slice(2);
// Three entries fit with a blank row between them; with more (8) Claude draws them packed, each
// prompt right over its detail row, and scrolls (`↑ N more`).
const COMMANDS = ['/recap', '/reload-plugins', '/reload-skills'];
const commands = Array.from({ length: Number(count) }, (_, i) => COMMANDS[i % COMMANDS.length]);
const opener = which === 'esc-esc' ? ['\u001b', '\u001b'] : [...which, '\r'];
const { write, look, lookAtSizes, settle, stop } = await startRecordedSession(`rewind-${which.replace(/\W/g, '')}`, out);
const close = async () => { await write(['\u001b']); await settle(); await sleep(500); await write(['\u0015']); await settle(); };

await write(opener, 150);
await look('fresh session, 80x24');
await close();
for (const cmd of commands) {
  await write([...cmd], 80); await settle({ quietMs: 500, maxMs: 3000 }); await write(['\r']);
  await settle({ quietMs: 800, maxMs: 6000 }); await write(['\u001b']); await settle(); await write(['\u0015']); await settle();
}
await sleep(2500);
await write(opener, 150);
await lookAtSizes('80x24');
await write(['\u001b']);
await settle();
await sleep(2000);
await stop();
process.exit(0);
