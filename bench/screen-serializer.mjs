#!/usr/bin/env node
// Snapshot cost: `serializeScreen` of a 120×40 screen with 2000 rows of coloured scrollback (what a
// terminal-stream viewer joining a long session costs the daemon), with all of the scrollback, the
// last 200 rows and none. Prints name=value lines (ms per snapshot, characters). Run after the build.
import { serializeScreen, TerminalScreen } from '../dist/terminal/index.js';

const screen = new TerminalScreen({ cols: 120, rows: 40, scrollback: 2000 });
let out = '';
for (let i = 0; i < 2100; i++) out += `\x1b[3${i % 8}m${'word '.repeat(10)}\x1b[0m plain text line ${i} \x1b[1;4mbold\x1b[0m ${'x'.repeat(i % 60)}\r\n`;
screen.write(out);
for (const [name, scrollback] of [['all', undefined], ['200', 200], ['0', 0]]) {
  const options = scrollback === undefined ? {} : { scrollback };
  for (let i = 0; i < 5; i++) serializeScreen(screen.headless, options);
  const start = performance.now();
  let n = 0;
  let chars = 0;
  while (performance.now() - start < 1000) { chars = serializeScreen(screen.headless, options).length; n += 1; }
  console.log(`snapshot_scrollback_${name}_ms=${((performance.now() - start) / n).toFixed(2)}`);
  console.log(`snapshot_scrollback_${name}_chars=${chars}`);
}
screen.dispose?.();
