import fc from 'fast-check';
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { cellText, rowText, type CellLine } from './row-text.js';

const { Terminal } = xtermHeadless;

/** Pieces that exercise every cell kind: ASCII, wide CJK, astral emoji, combining marks, blanks, SGR, cursor moves. */
const PIECES = [
  'a', 'hello world', '  ', '\t', '日本語', '😀', '👍🏽', 'e\u0301', 'a\u0300\u0301', '❯ 1. Yes', '✻ Thinking…', '─'.repeat(12),
  '\u00a0', '\u3000', 'café', 'ÿ', '\u2003', '\u205f', 'x\u2028', '\u1680', '\x1b[31mred\x1b[0m', '\x1b[7m \x1b[0m', '\x1b[5G', '\x1b[K', '\x1b[2P', '\x1b[3@', '\x1b[1;70H', '\x1b[X',
];

function lineOf(term: InstanceType<typeof Terminal>, y: number): CellLine {
  const lines = (term as unknown as { _core: { _bufferService: { buffers: { active: { lines: { get(y: number): CellLine } } } } } })._core._bufferService.buffers.active.lines;
  return lines.get(y);
}

describe('rowText', () => {
  it('equals translateToString(true).trimEnd() on every row', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 30 }), fc.integer({ min: 2, max: 40 }), (pieces, cols) => {
        const term = new Terminal({ cols, rows: 6, allowProposedApi: true });
        const writer = (term as unknown as { _core: { _writeBuffer: { writeSync(d: string): void } } })._core._writeBuffer;
        writer.writeSync(pieces.join(''));
        // Without combining marks every row's text is in its cells; with them, cellText says so.
        const combining = pieces.some((p) => /\p{M}|\u{1F3FD}/u.test(p));
        for (let y = 0; y < 6; y++) {
          const line = lineOf(term, y);
          const want = line.translateToString(true).trimEnd();
          expect(rowText(line)).toBe(want);
          const fromCells = cellText(line);
          if (fromCells !== null) expect(fromCells).toBe(want);
          if (!combining) expect(fromCells).not.toBeNull();
        }
        term.dispose();
      }),
      { numRuns: 400 },
    );
  });

  it('falls back to xterm when the cell words are not readable', () => {
    const line: CellLine = { length: 4, translateToString: () => 'ab  ' };
    expect(rowText(line)).toBe('ab');
    expect(cellText(line)).toBeNull();
  });
});
