import { describe, expect, it } from 'vitest';
import { TerminalScreen } from './terminal-screen.js';

const GREY = '\u001b[38;2;153;153;153m';
const RESET = '\u001b[0m';

function screenWith(cols: number, rows: number, data: string): TerminalScreen {
  const screen = new TerminalScreen({ cols, rows });
  screen.write(data);
  return screen;
}

describe('TerminalScreen.frameCells', () => {
  it('tells where a character is drawn: a wide character takes two columns, the text one index', () => {
    const screen = screenWith(40, 5, '你好🙂x\r\n  ab');
    const cells = screen.frameCells('viewport');
    expect(screen.viewportLines()[0]).toBe('你好🙂x');
    // '你' 0–1, '好' 2–3, '🙂' (two code units) 4–5, 'x' 6.
    expect([0, 1, 2, 3, 4].map((i) => cells.columnAt(0, i))).toEqual([0, 2, 4, 4, 6]);
    expect(cells.columnAt(1, 2)).toBe(2);
    expect(cells.columnAt(0, 99)).toBe(-1);
    expect(cells.columnAt(7, 0)).toBe(-1);
    // The column right of a character: past both cells of a wide one.
    expect([0, 1, 2, 4].map((i) => cells.endColumn(0, i))).toEqual([2, 4, 6, 7]);
    expect(cells.endColumn(0, 99)).toBe(-1);
    expect(cells.width()).toBe(40);
    screen.dispose();
  });

  it('answers "unknown" once the screen has changed: a write or a resize after the frame', () => {
    const screen = screenWith(40, 5, 'abc');
    const cells = screen.frameCells('viewport');
    screen.write('d');
    expect([cells.columnAt(0, 0), cells.endColumn(0, 0), cells.width()]).toEqual([-1, -1, -1]);
    screen.dispose();
  });

  it('tells whether two characters are drawn alike: colour, bold and dim count', () => {
    const screen = screenWith(40, 5, `plain ${GREY}grey${RESET} \u001b[1mbold${RESET} \u001b[2mdim${RESET} more`);
    const cells = screen.frameCells('viewport');
    const at = (s: string): number => screen.viewportLines()[0]!.indexOf(s);
    expect(cells.sameStyle(0, at('plain'), 0, at('more'))).toBe(true);
    expect(cells.sameStyle(0, at('grey'), 0, at('grey') + 3)).toBe(true);
    expect(cells.sameStyle(0, at('plain'), 0, at('grey'))).toBe(false);
    expect(cells.sameStyle(0, at('plain'), 0, at('bold'))).toBe(false);
    expect(cells.sameStyle(0, at('plain'), 0, at('dim'))).toBe(false);
    expect(cells.sameStyle(0, 0, 5, 0)).toBeNull();
    screen.dispose();
  });

  it('tells whether two characters are both bold on the same background, whatever their colour', () => {
    const HL = '\u001b[48;2;250;178;131m';
    const screen = screenWith(60, 5, `\u001b[1mTitle${RESET} ${GREY}\u001b[1mHeading${RESET} ${HL}\u001b[1mcurrent${RESET} plain`);
    const cells = screen.frameCells('viewport');
    const at = (s: string): number => screen.viewportLines()[0]!.indexOf(s);
    expect(cells.boldAlike?.(0, at('Title'), 0, at('Heading'))).toBe(true);
    expect(cells.boldAlike?.(0, at('Title'), 0, at('current'))).toBe(false);
    expect(cells.boldAlike?.(0, at('Title'), 0, at('plain'))).toBe(false);
    expect(cells.boldAlike?.(0, at('plain'), 0, at('plain') + 1)).toBe(false);
    expect(cells.boldAlike?.(0, 0, 5, 0)).toBeNull();
    screen.dispose();
  });

  it('reads the viewport\'s rows where its leading blank rows were dropped', () => {
    const screen = screenWith(20, 6, `\r\n\r\nfirst\r\n${GREY}second${RESET}`);
    expect(screen.viewportLines()).toEqual(['first', 'second']);
    const cells = screen.frameCells('viewport');
    expect(cells.sameStyle(0, 0, 1, 0)).toBe(false);
    expect(cells.sameStyle(1, 0, 1, 5)).toBe(true);
    screen.dispose();
  });

  it('reads the guard frame\'s rows under its padding and scrollback', () => {
    // 30 rows written into a 5-row screen: 25 in the scrollback, the guard frame padded above them.
    const rows = Array.from({ length: 30 }, (_, i) => (i % 2 ? `${GREY}row ${i}${RESET}` : `row ${i}`));
    const screen = screenWith(20, 5, rows.join('\r\n'));
    const frame = screen.guardFrame();
    const cells = screen.frameCells('guard');
    const plain = (r: number): boolean | null => cells.sameStyle(r, 0, frame.lines.indexOf('row 0'), 0);
    for (const i of [0, 1, 2, 27, 28, 29]) {
      const r = frame.lines.indexOf(`row ${i}`);
      expect(r, `row ${i} in the frame`).toBeGreaterThanOrEqual(0);
      expect(plain(r), `row ${i}`).toBe(i % 2 === 0);
    }
    expect(cells.columnAt(0, 0), 'a padding row').toBe(-1);
    screen.dispose();
  });

  it('answers "unknown" once the screen changed after the cells were taken', () => {
    const screen = screenWith(20, 5, 'abc');
    const cells = screen.frameCells('viewport');
    expect(cells.columnAt(0, 1)).toBe(1);
    screen.write('d');
    expect(cells.columnAt(0, 1)).toBe(-1);
    expect(cells.sameStyle(0, 0, 0, 1)).toBeNull();
    expect(screen.frameCells('viewport').columnAt(0, 1)).toBe(1);
    screen.dispose();
  });
});
