/**
 * `node lab/claude-code/record-subview.mjs OUT.cast config|powerup`: records a view a menu opens
 * (issue 29: a sub-view is a modal of its own) — /config's 'Switch models when a message is
 * flagged' (a list of its own: Down four times — the first leaves the search box — then Enter) or /powerup's first page
 * ('Talk to your codebase', Enter) — at 80×24, resized to 60×20 and 200×50, then Esc back to the
 * menu and Esc until the prompt is back. Prints what specterm reported at each step and the input
 * events' times (for the `.labels.json`).
 */
import { startRecordedSession } from './recorded-session.mjs';

const DOWN = '\u001b[B';
const VIEWS = {
  config: { command: '/config', into: [DOWN, DOWN, DOWN, DOWN, '\r'], closes: 2 },
  powerup: { command: '/powerup', into: ['\r'], closes: 1 },
};
const [out, which = 'config'] = process.argv.slice(2);
const view = VIEWS[which];
if (!view) throw new Error(`record-subview: no view ${JSON.stringify(which)}; use ${Object.keys(VIEWS).join(' or ')}`);
const { write, look, lookAtSizes, stop } = await startRecordedSession(`subview-${which}`, out);
await write([...view.command, '\r']);
await look('menu');
await write(view.into, 300);
await lookAtSizes('view 80x24');
await write(['\u001b']);
await look('back');
for (let i = 0; i < view.closes; i++) { await write(['\u001b']); await look(`closed ${i + 1}`); }
await stop();
process.exit(0);
