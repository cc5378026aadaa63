/**
 * The keys that answer a prompt on the session page: 1–9 press the button with that displayed
 * number, `y` the first whose label starts with "Yes", `n` the first that says no (a "No…"
 * label, else a "Cancel…" one, else the one marked Esc). And when a key press is typing
 * rather than a shortcut: in a text field, in the terminal (xterm reads keys from a textarea of
 * its own) or with a modifier held, a key belongs to what has focus.
 * @module
 */

interface Labelled { index: number; label: string }

/** Whether a key press is typing (in a field or the terminal) rather than a shortcut. */
export function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (event.altKey || event.ctrlKey || event.metaKey) return true;
  if (target === null || typeof target.closest !== 'function') return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.closest('.terminal') !== null;
}

const YES = [/^yes\b/i];
const NO = [/^no\b/i, /^cancel\b/i, /\besc\b/i];

function firstMatching<T extends Labelled>(buttons: readonly T[], patterns: RegExp[]): T | undefined {
  for (const pattern of patterns) {
    const found = buttons.find((b) => pattern.test(b.label.trim()));
    if (found) return found;
  }
  return undefined;
}

/** The button key `key` presses, if any. */
export function buttonForKey<T extends Labelled>(key: string, buttons: readonly T[]): T | undefined {
  if (/^[1-9]$/.test(key)) return buttons.find((b) => b.index === Number(key));
  if (key === 'y' || key === 'Y') return firstMatching(buttons, YES);
  if (key === 'n' || key === 'N') return firstMatching(buttons, NO);
  return undefined;
}

/** The keys that press `button` (for its hint and `aria-keyshortcuts`), e.g. `['1', 'y']`. */
export function keysOf(button: Labelled, buttons: readonly Labelled[]): string[] {
  return [String(button.index), 'y', 'n'].filter((key) => buttonForKey(key, buttons) === button);
}
