import { describe, expect, it } from 'vitest';
import { encodeArrowKey, readTerminalModes, wrapBracketedPaste, type ModeSource } from './terminal-modes.js';

describe('terminal modes', () => {
  it('maps emulator modes and the active buffer type', () => {
    const source: ModeSource = {
      modes: { bracketedPasteMode: true, sendFocusMode: false, applicationCursorKeysMode: true, mouseTrackingMode: 'any' },
      buffer: { active: { type: 'alternate' } },
    };
    expect(readTerminalModes(source)).toEqual({ bracketedPaste: true, focusReporting: false, altScreen: true, applicationCursorKeys: true, mouseTracking: 'any' });
  });

  it('wraps a paste and strips embedded paste markers so the paste cannot end early', () => {
    expect(wrapBracketedPaste('a\nb')).toBe('\x1b[200~a\nb\x1b[201~');
    expect(wrapBracketedPaste('x\x1b[201~rm -rf /\x1b[200~')).toBe('\x1b[200~xrm -rf /\x1b[201~');
  });

  it('encodes arrow keys for normal and application cursor-keys mode', () => {
    expect(encodeArrowKey('up', { applicationCursorKeys: false })).toBe('\x1b[A');
    expect(encodeArrowKey('down', { applicationCursorKeys: true })).toBe('\x1bOB');
    expect(encodeArrowKey('left', { applicationCursorKeys: false })).toBe('\x1b[D');
  });
});
