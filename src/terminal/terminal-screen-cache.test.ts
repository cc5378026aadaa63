import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGuardFrame, GUARD_FRAME_SCROLLBACK_LINES } from '../core/screen/guard-frame.js';
import { TerminalScreen } from './terminal-screen.js';

/** Output fragments that move rows around: scrolling, regions, erases, alt screen, resets. */
const FRAGMENTS = [
  'hello', 'spinner ⠋', 'line\r\n'.repeat(7), '✻ Thinking… (3s · esc to interrupt)', '\r\n', '\r\n\r\n\r\n', '\n',
  '\x1b[2K', '\x1b[1A', '\x1b[3A\x1b[2K', '\x1b[H', '\x1b[2J', '\x1b[3J', '\x1b[J', '\x1b[K',
  '\x1b[5;1H', '\x1b[2;4r', '\x1b[r', '\x1b[S', '\x1b[T', '\x1bM', '\x1b[2L', '\x1b[2M', '\x1b[3P', '\x1b[4@',
  '\x1b[?1049h', '\x1b[?1049l', '\x1bc', '日本語', 'e\u0301', 'e\u0300', '\x1b[31mred\x1b[0m', 'x'.repeat(30),
];

function fresh(data: string[], cols: number, rows: number, scrollback: number, resizeAt: number | null): TerminalScreen {
  const s = new TerminalScreen({ cols, rows, scrollback });
  data.forEach((d, i) => {
    s.write(d);
    if (i === resizeAt) s.resize(cols + 3, rows + 1);
  });
  return s;
}

describe('TerminalScreen row cache', () => {
  it('follows lines trimmed off a full scrollback', () => {
    const live = new TerminalScreen({ cols: 10, rows: 3, scrollback: 2 });
    for (let i = 0; i < 10; i++) {
      live.write(`L${i}\r\n`);
      live.viewportLines();
      live.scrollbackTailLines(6);
    }
    expect(live.scrollbackTailLines(6)).toEqual(['L6', 'L7', 'L8', 'L9']);
    expect(live.viewportLines()).toEqual(['L8', 'L9']);
  });


  it('reads rows beyond the row window (deep scrollback) like an uncached screen', () => {
    const live = new TerminalScreen({ cols: 12, rows: 5, scrollback: 1000 });
    const data: string[] = [];
    for (let i = 0; i < 600; i++) data.push(i % 50 === 0 ? '\r\n\r\n' : `row ${i}\r\n`);
    for (const d of data) {
      live.write(d);
      live.guardFrame();
    }
    live.write('\x1b[3A\x1b[2Kedited');
    const ref = fresh(data.concat('\x1b[3A\x1b[2Kedited'), 12, 5, 1000, null);
    expect(live.scrollbackTailLines(450)).toEqual(ref.scrollbackTailLines(450));
    expect(live.scrollbackLines()).toEqual(ref.scrollbackLines());
    expect(live.guardFrame()).toEqual(ref.guardFrame());
    expect(live.guardFrame().lines).toContain('edited');
  });

  it('never keeps a row with a combined character by its cells (its text lives outside them)', () => {
    const live = new TerminalScreen({ cols: 10, rows: 3, scrollback: 0 });
    live.write('e\u0301');
    expect(live.viewportLines()).toEqual(['e\u0301']);
    // Same cell words (a combined cell holds a flag and a width), another text.
    live.write('\r\x1b[2Ke\u0300');
    expect(live.viewportLines()).toEqual(['e\u0300']);
  });

  it('reads rows that scroll into a reused ring slot right, whether or not their cells equal the old occupant', () => {
    // 5 rows + 256 rows of window: 261 slots, so 700 lines pass through every slot more than twice.
    // Lines repeat with period 7 (coprime with 261): a line entering a slot sometimes has the same
    // cells as the line it replaces there and sometimes not; wide and coloured cells included.
    const texts = ['a', 'b b', '日本', '\x1b[31mred\x1b[0m', '', 'a', 'x'.repeat(12)];
    const live = new TerminalScreen({ cols: 12, rows: 5, scrollback: 1000 });
    const data: string[] = [];
    for (let i = 0; i < 700; i++) {
      const chunk = `${texts[i % 7]}\r\n`;
      data.push(chunk);
      live.write(chunk);
      live.guardFrame();
      if (i % 97 === 0 || i === 699) {
        // A screen read only now rebuilds its window from scratch: the uncached reading.
        const ref = fresh(data, 12, 5, 1000, null);
        expect(live.guardFrame()).toEqual(ref.guardFrame());
        expect(live.viewportLines()).toEqual(ref.viewportLines());
        ref.dispose();
      }
    }
    expect(live.scrollbackLines()).toEqual(fresh(data, 12, 5, 1000, null).scrollbackLines());
  });

  it('reads exactly what an uncached screen reads, after every write', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 8, max: 20 }),
        fc.integer({ min: 3, max: 8 }),
        fc.constantFrom(0, 5, 50, 400), // 400: more rows than the row window holds
        fc.option(fc.integer({ min: 0, max: 39 }), { nil: null }),
        (data, cols, rows, scrollback, resizeAt) => {
          const live = new TerminalScreen({ cols, rows, scrollback });
          for (let i = 0; i < data.length; i++) {
            live.write(data[i]!);
            if (i === resizeAt) live.resize(cols + 3, rows + 1);
            const ref = fresh(data.slice(0, i + 1), cols, rows, scrollback, resizeAt);
            expect(live.viewportLines()).toEqual(ref.viewportLines());
            expect(live.scrollbackTailLines(rows + 4)).toEqual(ref.scrollbackTailLines(rows + 4));
            expect(live.cursor()).toEqual(ref.cursor());
            // The guard frame built from the row window equals the reference composition.
            const vp = ref.viewportLines();
            expect(live.guardFrame()).toEqual(buildGuardFrame(vp, ref.scrollbackTailLines(vp.length + GUARD_FRAME_SCROLLBACK_LINES), ref.cursor()));
            ref.dispose();
          }
          expect(live.scrollbackLines()).toEqual(fresh(data, cols, rows, scrollback, resizeAt).scrollbackLines());
          live.dispose();
        },
      ),
      { numRuns: 150 },
    );
  });
});
