/**
 * `GET …/screen?format=ansi` and a recording's first frame: the visible screen as the escape
 * sequences that redraw it (colours, attributes, cursor), from the daemon's headless terminal —
 * the serializer of the terminal stream's snapshots, without scrollback.
 * @module
 */
import { serializeScreen, type TerminalScreen } from '../terminal/index.js';

export function serializeScreenAnsi(screen: TerminalScreen): string {
  return serializeScreen(screen.headless, { scrollback: 0 });
}
