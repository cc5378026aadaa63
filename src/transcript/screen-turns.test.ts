import { describe, expect, it } from 'vitest';
import { screenAnswer, sharedBottomRows, type IdleScreen } from './screen-turns.js';

const BOX = ['╭──────────────╮', '│ ❯            │', '╰──────────────╯', '  ? for shortcuts · 12% context'];

/** A buffer of rows by id (id 0 first), of which the first `trimmed` are gone. */
function buffer(rows: string[], trimmed = 0) {
  return (from: number, to: number) => ({ lines: rows.slice(Math.max(from, trimmed), to), cut: from < trimmed });
}

function idle(rows: string[], top: number, height: number): IdleScreen {
  const viewport = rows.slice(top, top + height);
  while (viewport.length < height) viewport.push('');
  return { viewport, topId: top };
}

describe('screenAnswer', () => {
  it('reads the rows added between two idle screens, without the box, footer, echo or blank rows', () => {
    const before = ['Welcome to demo', '', ...BOX];
    const after = ['Welcome to demo', '', '> hello there', '', '  Hi! I can help.', '  Second line.', '', ...BOX.slice(0, 3), '  ? for shortcuts · 13% context'];
    const answer = screenAnswer({ before: idle(before, 0, 20), after: idle(after, 0, 20), rows: buffer(after), message: 'hello there' });
    expect(answer).toEqual({ text: 'Hi! I can help.\nSecond line.', cut: false });
  });

  it('finds a turn that scrolled by row ids, and says so when its start was trimmed away', () => {
    const before = ['old 1', 'old 2', ...BOX];
    const body = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const after = ['old 1', 'old 2', '> go', ...body, ...BOX];
    const height = 10;
    const whole = screenAnswer({ before: idle(before, 0, height), after: idle(after, after.length - height, height), rows: buffer(after), message: 'go' });
    expect(whole).toEqual({ text: body.join('\n'), cut: false });
    const trimmed = screenAnswer({ before: idle(before, 0, height), after: idle(after, after.length - height, height), rows: buffer(after, 10), message: 'go' });
    expect(trimmed.cut).toBe(true);
    expect(trimmed.text.split('\n')[0]).toBe('line 7');
  });

  it('on the alternate screen reads below the message, and says it is cut when the message scrolled off', () => {
    const alt = (rows: string[]): IdleScreen => ({ viewport: rows, topId: null });
    const before = alt(['', '', '', ...BOX]);
    const after = alt(['you: fix it', 'Fixed the bug.', '', ...BOX]);
    expect(screenAnswer({ before, after, rows: () => ({ lines: [], cut: false }), message: 'fix it' })).toEqual({ text: 'Fixed the bug.', cut: false });
    const scrolled = alt(['more text', 'Fixed the bug.', '', ...BOX]);
    expect(screenAnswer({ before, after: scrolled, rows: () => ({ lines: [], cut: false }), message: 'fix it' }).cut).toBe(true);
  });

  it('takes an input box whose placeholder changed as chrome, and a differing answer row as content', () => {
    const a = ['x', '╭─╮', '│ Try "fix lint" │', '╰─╯'];
    const b = ['y', '╭─╮', '│ Try "write a test" │', '╰─╯'];
    expect(sharedBottomRows(a, b)).toBe(3);
    expect(sharedBottomRows(['a', 'b'], ['c', 'b'])).toBe(1);
    expect(sharedBottomRows(['same', 'same'], ['same', 'same'])).toBe(1);
  });
});
