/**
 * The daemon's small scrollback (SPEC_READ_SCROLLBACK_ROWS): a driver keeping only that many
 * rows above its viewport must still see everything its spec reads there — the guard frame's
 * 200 lines (a tall modal whose question scrolled above the viewport) — while a screen with
 * less scrollback than that demonstrably loses it.
 */
import { describe, expect, it } from 'vitest';
import { GUARD_FRAME_SCROLLBACK_LINES } from '../src/core/screen/guard-frame.js';
import { DEFAULT_SCROLLBACK_ROWS, SPEC_READ_SCROLLBACK_ROWS, TerminalScreen } from '../src/terminal/index.js';
import { D, harness, toIdle } from './helpers/driver-harness.js';

/** An approval whose question sits `bodyLines` + 5 rows above the bottom of a 16-row screen. */
function tallApproval(bodyLines: number): string {
  const body = Array.from({ length: bodyLines }, (_, i) => `   echo step ${i}`);
  return ['', D, ' Bash command', ' Do you want to proceed?', ...body, ' ❯ 1. Yes', '   2. Yes, and don\'t ask again', '   3. No', D, ' Esc to cancel'].join('\r\n');
}

function approvalSeen(scrollback: number, bodyLines: number): { state: string | undefined; buttons: number } {
  const h = harness(undefined, { scrollback });
  toIdle(h);
  h.tx.emit(tallApproval(bodyLines));
  h.at(2_000);
  const view = h.driver.getCurrentView();
  h.driver.shutdown();
  return { state: view?.state.id, buttons: view?.modal?.buttons.length ?? 0 };
}

describe('SPEC_READ_SCROLLBACK_ROWS', () => {
  it('covers the guard frame and is far below the stand-alone default', () => {
    expect(SPEC_READ_SCROLLBACK_ROWS).toBeGreaterThanOrEqual(GUARD_FRAME_SCROLLBACK_LINES);
    expect(SPEC_READ_SCROLLBACK_ROWS).toBeLessThan(DEFAULT_SCROLLBACK_ROWS / 4);
  });

  it('keeps a question 185 rows above the viewport bottom visible to the spec', () => {
    // 180 body lines: the question is 169 rows above the viewport's top, inside the frame's 200.
    expect(approvalSeen(SPEC_READ_SCROLLBACK_ROWS, 180)).toEqual({ state: 'approval', buttons: 3 });
    expect(approvalSeen(DEFAULT_SCROLLBACK_ROWS, 180)).toEqual({ state: 'approval', buttons: 3 });
  });

  it('a scrollback shorter than the guard frame loses it (the test can fail)', () => {
    expect(approvalSeen(100, 180).state).toBe('idle');
  });

  it('bounds the screen: thousands of lines of output keep at most that many rows', () => {
    const screen = new TerminalScreen({ cols: 80, rows: 24, scrollback: SPEC_READ_SCROLLBACK_ROWS });
    screen.write(Array.from({ length: 3_000 }, (_, i) => `line ${i}`).join('\r\n'));
    expect(screen.scrollbackLength()).toBe(SPEC_READ_SCROLLBACK_ROWS);
    expect(screen.scrollbackTailLines(GUARD_FRAME_SCROLLBACK_LINES + 24).at(0)).toBe(`line ${3_000 - 224}`);
    screen.dispose();
  });
});
