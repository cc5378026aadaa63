import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TerminalScreen } from './terminal-screen.js';
import { TerminalError } from './errors.js';

const screens: TerminalScreen[] = [];
function makeScreen(cols = 20, rows = 5, scrollback = 50): TerminalScreen {
  const screen = new TerminalScreen({ cols, rows, scrollback });
  screens.push(screen);
  return screen;
}
afterEach(() => {
  for (const s of screens.splice(0)) s.dispose();
});

/** Moves the cursor to 1-based row/col. */
const at = (row: number, col: number): string => `\x1b[${row};${col}H`;

describe('TerminalScreen writes', () => {
  it('shows written text immediately after write returns', () => {
    const screen = makeScreen();
    screen.write('hello');
    expect(screen.viewportText()).toBe('hello');
  });

  it('counts every non-empty write and every resize in writeSeq', () => {
    const screen = makeScreen();
    expect(screen.writeSeq).toBe(0);
    screen.write('a');
    screen.write('');
    screen.write('b');
    expect(screen.writeSeq).toBe(2);
    screen.resize(30, 5);
    expect(screen.writeSeq).toBe(3);
  });

  it('returns the cached viewport array until the screen changes', () => {
    const screen = makeScreen();
    screen.write('one');
    const first = screen.viewportLines();
    expect(screen.viewportLines()).toBe(first);
    screen.write(' two');
    expect(screen.viewportLines()).not.toBe(first);
    expect(screen.viewportText()).toBe('one two');
  });

  it('rejects a non-string write with a TerminalError naming the fix', () => {
    const screen = makeScreen();
    expect(() => screen.write(42 as unknown as string)).toThrow(/expects a string, got number/);
  });
});

describe('TerminalScreen viewport snapshot (normal screen)', () => {
  it('drops leading and trailing empty rows and right-trims each row', () => {
    const screen = makeScreen();
    screen.write(`${at(2, 1)}top   ${at(3, 3)}mid${at(4, 1)}    `);
    expect(screen.viewportLines()).toEqual(['top', '  mid']);
    expect(screen.leadingBlankRows()).toBe(1);
  });

  it('keeps empty rows between content rows', () => {
    const screen = makeScreen();
    screen.write(`a${at(3, 1)}b`);
    expect(screen.viewportLines()).toEqual(['a', '', 'b']);
  });

  it('returns no lines for a blank screen', () => {
    const screen = makeScreen();
    expect(screen.viewportLines()).toEqual([]);
    expect(screen.viewportText()).toBe('');
    expect(screen.leadingBlankRows()).toBe(5);
  });

  it('shows the live bottom rows once output scrolls', () => {
    const screen = makeScreen(20, 3);
    screen.write('l1\r\nl2\r\nl3\r\nl4\r\nl5');
    expect(screen.viewportLines()).toEqual(['l3', 'l4', 'l5']);
    expect(screen.scrollbackLength()).toBe(2);
  });
});

describe('TerminalScreen alternate screen', () => {
  it.each([['1049'], ['1047'], ['47']])('keeps exactly rows rows on ?%sh and restores trimming on ?%sl', (mode) => {
    const screen = makeScreen(20, 4);
    screen.write('normal');
    screen.write(`\x1b[?${mode}h\x1b[H\x1b[2J${at(2, 1)}alt  `);
    expect(screen.modes().altScreen).toBe(true);
    expect(screen.viewportLines()).toEqual(['', 'alt', '', '']);
    expect(screen.leadingBlankRows()).toBe(0);
    expect(screen.scrollbackLines()).toEqual(['', 'alt', '', '']);
    expect(screen.scrollbackLength()).toBe(0);
    screen.write(`\x1b[?${mode}l`);
    expect(screen.modes().altScreen).toBe(false);
    expect(screen.viewportLines()).toEqual(['normal']);
  });

  it('shows no cell past the right edge after the terminal narrows (xterm keeps them on the alternate screen)', () => {
    // OpenCode at 80 columns, narrowed to 60 with a dialog open: it repaints 60 columns, and the
    // dialog's old 'esc' hint at column 64 is off the screen — a person never sees it.
    const screen = makeScreen(80, 4);
    screen.write(`\x1b[?1049h${at(2, 64)}esc${at(3, 1)}kept`);
    screen.resize(60, 4);
    screen.write(`${at(1, 1)}Select agent`);
    expect(screen.viewportLines()).toEqual(['Select agent', '', 'kept', '']);
    expect(screen.scrollbackLines()).toEqual(['Select agent', '', 'kept', '']);
    // Widened again, xterm shows them again (as the browser's xterm does): only the reading is cut.
    screen.resize(80, 4);
    expect(screen.viewportLines()[1]).toBe(`${' '.repeat(63)}esc`);
  });

  it('reports the cursor row unchanged on the alternate screen', () => {
    const screen = makeScreen(20, 4);
    screen.write(`\x1b[?1049h${at(3, 5)}`);
    expect(screen.cursor()).toEqual({ row: 2, col: 4 });
    expect(screen.viewportLines()[screen.cursor().row]).toBe('');
  });
});

describe('TerminalScreen scrollback', () => {
  it('includes scrolled-out rows and trims blank ends', () => {
    const screen = makeScreen(20, 3);
    screen.write('\r\nfirst\r\nsecond\r\nthird\r\nfourth\r\n');
    expect(screen.scrollbackLines()).toEqual(['first', 'second', 'third', 'fourth']);
    expect(screen.scrollbackText()).toBe('first\nsecond\nthird\nfourth');
    expect(screen.viewportLines()).toEqual(['third', 'fourth']);
  });

  it('keeps at most the configured number of scrollback rows', () => {
    const screen = makeScreen(20, 2, 3);
    for (let i = 0; i < 10; i++) screen.write(`row${i}\r\n`);
    // 3 scrollback + 2 viewport rows: row6..row9 plus the blank cursor row (trimmed).
    expect(screen.scrollbackLines()).toEqual(['row6', 'row7', 'row8', 'row9']);
  });

  it('returns the same lines from scrollbackTailLines as the tail of scrollbackLines', () => {
    const piece = fc.oneof(
      fc.constantFrom('\r\n', '\r\n\r\n', '   ', '\x1b[H', '\x1b[2J', '\x1b[3;1H', '\x1b[K'),
      fc.stringMatching(/^[a-z ]{1,12}$/),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 0, max: 12 }), (pieces, n) => {
        const screen = new TerminalScreen({ cols: 10, rows: 4, scrollback: 8 });
        try {
          screen.write(pieces.join(''));
          const all = screen.scrollbackLines();
          expect(screen.scrollbackTailLines(n)).toEqual(n === 0 ? [] : all.slice(-n));
        } finally {
          screen.dispose();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('rejects a negative tail size', () => {
    const screen = makeScreen();
    expect(() => screen.scrollbackTailLines(-1)).toThrow(TerminalError);
  });
});

describe('TerminalScreen cursor', () => {
  it('expresses the row in viewportLines coordinates so the indexed line is the cursor line', () => {
    const screen = makeScreen(20, 6);
    screen.write(`${at(3, 1)}header${at(4, 1)}> typed`);
    expect(screen.rawCursor()).toEqual({ row: 3, col: 7 });
    expect(screen.leadingBlankRows()).toBe(2);
    expect(screen.cursor()).toEqual({ row: 1, col: 7 });
    expect(screen.viewportLines()[screen.cursor().row]).toBe('> typed');
  });

  it('indexes the cursor line in viewportLines for random screens, checked against an untrimmed copy', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 12 }), fc.stringMatching(/^[a-z]{1,5}$/)), { maxLength: 8 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 12 }),
        (writes, cursorRow, cursorCol) => {
          const input = writes.map(([r, c, text]) => at(r, c) + text).join('') + at(cursorRow, cursorCol);
          const screen = new TerminalScreen({ cols: 12, rows: 6, scrollback: 0 });
          // The alternate screen keeps every row, so it shows the raw row under the cursor.
          const untrimmed = new TerminalScreen({ cols: 12, rows: 6, scrollback: 0 });
          try {
            screen.write(input);
            untrimmed.write('\x1b[?1049h' + input);
            const rawLine = untrimmed.viewportLines()[untrimmed.rawCursor().row];
            const lines = screen.viewportLines();
            const { row } = screen.cursor();
            expect(row).toBe(screen.rawCursor().row - screen.leadingBlankRows());
            if (row >= 0 && row < lines.length) {
              expect(lines[row]).toBe(rawLine);
            } else {
              // Out of range only when the cursor sits on a blank row that the trim removed.
              expect(rawLine).toBe('');
            }
          } finally {
            screen.dispose();
            untrimmed.dispose();
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives a negative row when the cursor sits on a trimmed leading blank row', () => {
    const screen = makeScreen(20, 6);
    screen.write(`${at(4, 1)}content${at(2, 1)}`);
    expect(screen.cursor().row).toBe(-2);
  });

  it('puts the cursor exactly one row past the last line after an Ink-style frame ending in a newline', () => {
    const screen = makeScreen(20, 8);
    screen.write('───\r\n❯ \r\n───\r\n  ? for shortcuts\r\n');
    expect(screen.viewportLines()).toEqual(['───', '❯', '───', '  ? for shortcuts']);
    expect(screen.cursor().row).toBe(screen.viewportLines().length);
  });

  it('gives a row past the last line when the cursor sits below the content', () => {
    const screen = makeScreen(20, 6);
    screen.write(`content\r\n\r\n`);
    expect(screen.viewportLines()).toEqual(['content']);
    expect(screen.cursor()).toEqual({ row: 2, col: 0 });
  });
});

describe('TerminalScreen title and modes', () => {
  it('tracks the window title from OSC 0 and OSC 2', () => {
    const screen = makeScreen();
    expect(screen.windowTitle).toBe('');
    screen.write('\x1b]0;✻ Claude\x07');
    expect(screen.windowTitle).toBe('✻ Claude');
    screen.write('\x1b]2;second\x1b\\');
    expect(screen.windowTitle).toBe('second');
  });

  it('reports modes the child switched on and off', () => {
    const screen = makeScreen();
    expect(screen.modes()).toEqual({ bracketedPaste: false, focusReporting: false, altScreen: false, applicationCursorKeys: false, mouseTracking: 'none' });
    screen.write('\x1b[?2004h\x1b[?1004h\x1b[?1h\x1b[?1002h');
    expect(screen.modes()).toEqual({ bracketedPaste: true, focusReporting: true, altScreen: false, applicationCursorKeys: true, mouseTracking: 'drag' });
    screen.write('\x1b[?2004l\x1b[?1004l\x1b[?1l\x1b[?1002l');
    expect(screen.modes().bracketedPaste).toBe(false);
    expect(screen.modes().focusReporting).toBe(false);
    expect(screen.modes().mouseTracking).toBe('none');
  });
});

describe('TerminalScreen wide characters', () => {
  it('renders CJK and emoji as their characters without padding cells', () => {
    const screen = makeScreen(20, 3);
    screen.write('你好🙂x');
    // Documented behaviour: translateToString emits each wide char once (no filler space),
    // so string length differs from the cell column the cursor reports.
    expect(screen.viewportText()).toBe('你好🙂x');
  });

  it('counts CJK and emoji as two cells each (unicode11 width tables, as the browser xterm)', () => {
    const screen = makeScreen(20, 3);
    screen.write('你好');
    expect(screen.cursor().col).toBe(4);
    screen.write('🙂');
    // Unicode 11+ terminals (and Ink's string-width) count this emoji as 2 cells; xterm 6.0.0
    // counts 1 unless the unicode11 addon is active, which TerminalScreen loads. See docs/terminal.md.
    expect(screen.cursor().col).toBe(6);
  });

  it('wraps a wide character that does not fit at the end of a row to the next row', () => {
    const screen = makeScreen(5, 3);
    screen.write('abcd你');
    expect(screen.viewportLines()).toEqual(['abcd', '你']);
  });
});

describe('TerminalScreen responses, resize and disposal', () => {
  it('answers a cursor position query through onResponse', () => {
    const screen = makeScreen();
    const replies: string[] = [];
    screen.onResponse((data) => replies.push(data));
    screen.write(`${at(2, 3)}\x1b[6n`);
    expect(replies).toEqual(['\x1b[2;3R']);
  });

  it('keeps parsing after an onResponse listener throws', () => {
    const errors: unknown[] = [];
    const screen = new TerminalScreen({ cols: 20, rows: 3, onListenerError: (e) => errors.push(e) });
    screens.push(screen);
    screen.onResponse(() => {
      throw new Error('listener bug');
    });
    screen.write('\x1b[6n');
    screen.write('still works');
    expect(errors).toHaveLength(1);
    expect(screen.viewportText()).toBe('still works');
  });

  it('adopts a new size and reflows', () => {
    const screen = makeScreen(10, 3);
    // xterm does not reflow the row holding the cursor, so end with a newline.
    screen.write('0123456789abc\r\n');
    expect(screen.viewportLines()).toEqual(['0123456789', 'abc']);
    screen.resize(20, 3);
    expect([screen.cols, screen.rows]).toEqual([20, 3]);
    expect(screen.viewportLines()).toEqual(['0123456789abc']);
  });

  it.each([
    [{ cols: 0, rows: 5 }, /cols must be an integer between 1 and 1000, got 0/],
    [{ cols: 10, rows: 2.5 }, /rows must be an integer between 1 and 500, got 2.5/],
    [{ cols: 10_000, rows: 24 }, /cols must be an integer between 1 and 1000 \(the widest terminal specterm supports\), got 10000/],
    [{ cols: 80, rows: 501 }, /rows must be an integer between 1 and 500 \(the tallest terminal specterm supports\), got 501/],
    [{ cols: 10, rows: 5, scrollback: -1 }, /scrollback must be an integer between 0 and 1000000, got -1/],
  ])('rejects bad geometry %o with a TerminalError', (options, message) => {
    expect(() => new TerminalScreen(options)).toThrow(message);
  });

  it('rejects a bad resize without changing the size', () => {
    const screen = makeScreen(10, 3);
    expect(() => screen.resize(10, 0)).toThrow(TerminalError);
    expect(() => screen.resize(10_000, 10_000)).toThrow(/cols must be an integer between 1 and 1000/);
    expect([screen.cols, screen.rows]).toEqual([10, 3]);
  });

  it('accepts the largest size, 1000 x 500', () => {
    const screen = makeScreen(10, 3);
    screen.resize(1000, 500);
    expect([screen.cols, screen.rows]).toEqual([1000, 500]);
  });

  it('ignores writes after dispose and tolerates a second dispose', () => {
    const screen = makeScreen();
    screen.write('x');
    screen.dispose();
    screen.write('more');
    expect(() => screen.dispose()).not.toThrow();
    expect(screen.writeSeq).toBe(1);
  });
});

describe('TerminalScreen cell widths (unicode 11, as the browser xterm)', () => {
  // Each case: a wide character, then 'X'. The cursor after the wide char and the column of 'X'
  // must count it as 2 cells, as the dashboard's xterm.js with the unicode11 addon does.
  it.each([
    ['emoji', '\u{1F600}'],
    ['emoji (newer than unicode 6)', '\u{1F9E0}'],
    ['CJK', '漢'],
  ])('%s takes two cells and the next character lands at column 2', (_name, wide) => {
    const screen = makeScreen();
    screen.write(`${wide}X`);
    expect(screen.cursor().col).toBe(3);
    screen.write(`${at(2, 1)}ab${wide}c${at(2, 6)}Z`);
    // 'a'=0 'b'=1 wide=2..3 'c'=4, so Z (column 6, 1-based) sits right after c.
    expect(screen.viewportLines()[1]).toBe(`ab${wide}cZ`);
  });
});

describe('row ids (reading what was added between two moments)', () => {
  it('name the same row however far it scrolls, and say when a row was trimmed away', () => {
    const screen = new TerminalScreen({ cols: 20, rows: 5, scrollback: 10 });
    screen.write('\r\n\r\nfirst\r\nsecond');
    // Two blank rows on top are dropped from viewportLines(): the top id is that of 'first'.
    expect(screen.viewportLines()).toEqual(['first', 'second']);
    const top = screen.viewportTopId()!;
    expect(screen.rowsById(top, top + 2)).toEqual({ lines: ['first', 'second'], cut: false });
    for (let i = 0; i < 8; i++) screen.write(`\r\nrow ${i}`);
    expect(screen.rowsById(top, top + 4)).toEqual({ lines: ['first', 'second', 'row 0', 'row 1'], cut: false });
    // 10 rows of scrollback: after 20 more rows, 'first' and what came soon after it are gone.
    for (let i = 8; i < 28; i++) screen.write(`\r\nrow ${i}`);
    const later = screen.rowsById(top, top + 16);
    expect(later.cut).toBe(true);
    expect(later.lines[0]).toMatch(/^row /);
    expect(screen.rowsById(screen.viewportTopId()!, screen.viewportTopId()! + 5).lines).toEqual(screen.viewportLines());
    screen.write('\x1b[?1049h');
    expect(screen.viewportTopId()).toBeNull();
    screen.dispose();
  });
});
