import { describe, expect, it } from 'vitest';
import { TerminalScreen } from './terminal-screen.js';
import { MAX_OSC_PAYLOAD_CHARS, MAX_TRACKED_OSC } from './osc-tracker.js';

function screenTracking(numbers: number[], clock: () => number = () => 0): TerminalScreen {
  const screen = new TerminalScreen({ cols: 40, rows: 5 });
  screen.osc.track(numbers, clock);
  return screen;
}

describe('OSC tracking', () => {
  it('records the last payload of a tracked number, terminated by BEL or ST, with its arrival time', () => {
    let now = 100;
    const screen = screenTracking([7501], () => now);
    screen.write('\x1b]7501;state=working:app=codex\x07');
    expect(screen.osc.values.get(7501)).toEqual({ payload: 'state=working:app=codex', at: 100 });
    now = 250;
    screen.write('text\x1b]7501;state=idle:app=codex\x1b\\more');
    expect(screen.osc.values.get(7501)).toEqual({ payload: 'state=idle:app=codex', at: 250 });
    expect(screen.osc.seq).toBe(2);
    // The sequence is not drawn on the screen.
    expect(screen.viewportText()).toBe('textmore');
  });

  it('ignores numbers it was not asked for (no growth from a chatty CLI)', () => {
    const screen = screenTracking([7501]);
    for (let n = 1000; n < 1100; n += 1) screen.write(`\x1b]${n};x\x07`);
    expect([...screen.osc.values.keys()]).toEqual([]);
    expect(screen.osc.seq).toBe(0);
  });

  it('cuts a payload at the cap and tracks at most MAX_TRACKED_OSC numbers', () => {
    const screen = screenTracking(Array.from({ length: MAX_TRACKED_OSC + 5 }, (_, i) => 7000 + i));
    screen.write(`\x1b]7000;${'p'.repeat(MAX_OSC_PAYLOAD_CHARS * 3)}\x07`);
    expect(screen.osc.values.get(7000)?.payload.length).toBe(MAX_OSC_PAYLOAD_CHARS);
    screen.write(`\x1b]${7000 + MAX_TRACKED_OSC};x\x07`);
    expect(screen.osc.values.has(7000 + MAX_TRACKED_OSC)).toBe(false);
  });

  it('keeps xterm setting the title when OSC 2 is tracked too', () => {
    const screen = screenTracking([2]);
    screen.write('\x1b]2;⠋ Working\x07');
    expect(screen.osc.values.get(2)?.payload).toBe('⠋ Working');
    expect(screen.windowTitle).toBe('⠋ Working');
  });

  it('replaces its map on a payload (a held map keeps what was read) and drops numbers no longer tracked', () => {
    const screen = screenTracking([7501, 9]);
    screen.write('\x1b]7501;a\x07\x1b]9;4;1;50\x07');
    const held = screen.osc.values;
    screen.write('\x1b]7501;b\x07');
    expect(held.get(7501)?.payload).toBe('a');
    screen.osc.track([9], () => 0);
    expect([...screen.osc.values.keys()]).toEqual([9]);
    screen.write('\x1b]7501;c\x07');
    expect(screen.osc.values.has(7501)).toBe(false);
  });
});
