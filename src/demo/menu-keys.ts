/**
 * The keys of the demo's numbered menus (folder trust, the model picker, an approval): digits
 * choose at once, arrows move the cursor, Enter confirms, Esc cancels, Ctrl-C interrupts.
 * @module
 */
import type { KeyEvent } from './key-decoder.js';

export type MenuChoice = number | 'up' | 'down' | 'cancel' | 'interrupt' | null;

/** What `event` does in a menu of `count` rows whose cursor is on row `cursor` (0-based); a number is the 1-based row chosen. */
export function menuChoice(event: KeyEvent, count: number, cursor: number): MenuChoice {
  if (event.type === 'text') {
    const digit = Number.parseInt(event.text[0], 10);
    return digit >= 1 && digit <= count ? digit : null;
  }
  if (event.type !== 'key') return null;
  switch (event.name) {
    case 'up': return 'up';
    case 'down': return 'down';
    case 'enter': return cursor + 1;
    case 'escape': return 'cancel';
    case 'ctrl-c': return 'interrupt';
    default: return null;
  }
}

/** The cursor one row up or down, kept inside the menu. */
export function moveMenuCursor(cursor: number, direction: 'up' | 'down', count: number): number {
  return direction === 'up' ? Math.max(0, cursor - 1) : Math.min(count - 1, cursor + 1);
}
