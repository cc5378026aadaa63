/**
 * Terminal modes the driver cares about (DECSET state set by the child), read from the emulator,
 * plus the byte sequences that depend on them.
 *
 * @module
 */

/**
 * Modes switched on by the child program. The driver uses them to decide how to write: wrap a
 * paste only when the child asked for bracketed paste, send focus-in only to focus-gated TUIs.
 */
export interface TerminalModes {
  /** `CSI ? 2004 h`: the child wants pastes wrapped in `ESC[200~` … `ESC[201~`. */
  bracketedPaste: boolean;
  /** `CSI ? 1004 h`: the child wants `ESC[I` / `ESC[O` focus reports. */
  focusReporting: boolean;
  /** The alternate screen buffer is active (`CSI ? 1049 h`, `? 1047 h`, `? 47 h`). */
  altScreen: boolean;
  /** `CSI ? 1 h` (DECCKM): arrow keys must be sent as `ESC O A` rather than `ESC [ A`. */
  applicationCursorKeys: boolean;
  /** Mouse tracking mode requested by the child (`none` when off). */
  mouseTracking: 'none' | 'x10' | 'vt200' | 'drag' | 'any';
}

/** The subset of `@xterm/headless`'s `Terminal` this module reads (keeps the dependency narrow). */
export interface ModeSource {
  readonly modes: {
    readonly bracketedPasteMode: boolean;
    readonly sendFocusMode: boolean;
    readonly applicationCursorKeysMode: boolean;
    readonly mouseTrackingMode: 'none' | 'x10' | 'vt200' | 'drag' | 'any';
  };
  readonly buffer: { readonly active: { readonly type: 'normal' | 'alternate' } };
}

/**
 * Reads the current modes from an emulator.
 *
 * @param term - an `@xterm/headless` Terminal (or anything shaped like it).
 */
export function readTerminalModes(term: ModeSource): TerminalModes {
  const modes = term.modes;
  return {
    bracketedPaste: modes.bracketedPasteMode,
    focusReporting: modes.sendFocusMode,
    altScreen: term.buffer.active.type === 'alternate',
    applicationCursorKeys: modes.applicationCursorKeysMode,
    mouseTracking: modes.mouseTrackingMode,
  };
}

/** Focus-in report a focus-gated TUI waits for before it accepts input. */
export const FOCUS_IN = '\x1b[I';
/** Focus-out report. */
export const FOCUS_OUT = '\x1b[O';
/** Start of a bracketed paste. */
export const BRACKETED_PASTE_START = '\x1b[200~';
/** End of a bracketed paste. */
export const BRACKETED_PASTE_END = '\x1b[201~';

/**
 * Wraps `text` in bracketed-paste markers. The markers themselves are removed from `text` first:
 * an embedded `ESC[201~` would end the paste early and let the rest execute as typed input.
 *
 * @param text - the body to paste.
 */
export function wrapBracketedPaste(text: string): string {
  const safe = text.split(BRACKETED_PASTE_START).join('').split(BRACKETED_PASTE_END).join('');
  return BRACKETED_PASTE_START + safe + BRACKETED_PASTE_END;
}

/**
 * The byte sequence for an arrow key, honouring application cursor-keys mode (DECCKM).
 *
 * @param direction - which arrow.
 * @param modes - current modes (only `applicationCursorKeys` is read).
 */
export function encodeArrowKey(direction: 'up' | 'down' | 'right' | 'left', modes: Pick<TerminalModes, 'applicationCursorKeys'>): string {
  const letter = { up: 'A', down: 'B', right: 'C', left: 'D' }[direction];
  return (modes.applicationCursorKeys ? '\x1bO' : '\x1b[') + letter;
}
