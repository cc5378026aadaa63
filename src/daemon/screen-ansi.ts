/**
 * `GET …/screen?format=ansi`: the visible screen as the escape sequences that redraw it
 * (colours, attributes, cursor), from the daemon's headless terminal — the same serializer the
 * terminal stream's snapshots use, without scrollback.
 * @module
 */
import serializeAddon from '@xterm/addon-serialize';
import type { TerminalScreen } from '../terminal/index.js';

const { SerializeAddon } = serializeAddon;

export function serializeScreenAnsi(screen: TerminalScreen): string {
  const serializer = new SerializeAddon();
  screen.headless.loadAddon(serializer);
  try {
    return serializer.serialize({ scrollback: 0 });
  } finally {
    serializer.dispose();
  }
}
