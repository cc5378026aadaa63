import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VirtualScheduler } from '../../src/driver/schedulers.js';
import { TerminalScreen } from '../../src/terminal/terminal-screen.js';
import { SpawnError, TerminalError } from '../../src/terminal/errors.js';
import type { ExitInfo, SpawnRequest } from '../../src/terminal/transport.js';
import { parseAsciicast, type Asciicast } from '../../src/recording/asciicast.js';
import { ReplayTransport } from '../../src/recording/replay-transport.js';

const REQUEST: SpawnRequest = { file: 'claude', args: [], cwd: '/', env: {}, cols: 40, rows: 10 };
const small = (): Asciicast => parseAsciicast(readFileSync(fileURLToPath(new URL('../fixtures/recordings/small-session.cast', import.meta.url)), 'utf8'));

function cast(events: Array<[number, 'o' | 'i' | 'r' | 'm', string]>): Asciicast {
  return { header: { version: 2, width: 20, height: 5 }, events: events.map(([t, type, data]) => ({ t, type, data })) };
}

describe('ReplayTransport', () => {
  it('plays output at its recorded times relative to spawn', () => {
    const clock = new VirtualScheduler(1000);
    const transport = new ReplayTransport(cast([[0, 'o', 'a'], [0.25, 'o', 'b'], [1.5, 'o', 'c']]), clock);
    const seen: string[] = [];
    transport.onData((chunk) => seen.push(`${chunk}@${clock.now()}`));
    transport.spawn(REQUEST);
    expect(seen).toEqual([]);
    clock.advanceTo(1000);
    expect(seen).toEqual(['a@1000']);
    clock.advanceTo(1249);
    expect(seen).toEqual(['a@1000']);
    clock.advanceTo(1000 + transport.endTimeMs);
    expect(seen).toEqual(['a@1000', 'b@1250', 'c@2500']);
    expect(transport.endTimeMs).toBe(1500);
    expect(transport.playedEvents).toBe(3);
  });

  it('keeps a single pending timer however long the recording is', () => {
    const clock = new VirtualScheduler();
    const events = Array.from({ length: 1000 }, (_, i): [number, 'o', string] => [i / 100, 'o', 'x']);
    const transport = new ReplayTransport(cast(events), clock);
    let count = 0;
    transport.onData(() => count++);
    transport.spawn(REQUEST);
    expect(clock.pendingCount()).toBe(1);
    clock.advanceTo(transport.endTimeMs);
    expect(count).toBe(1000);
    expect(clock.pendingCount()).toBe(0);
  });

  it('follows recorded resizes, reports markers and lists recorded input without playing it', () => {
    const clock = new VirtualScheduler();
    const transport = new ReplayTransport(small(), clock);
    const log: string[] = [];
    transport.onData((chunk) => log.push(`o:${chunk.length}`));
    transport.onResize(({ cols, rows }) => log.push(`r:${cols}x${rows}@${clock.now()}`));
    transport.onMarker((label) => log.push(`m:${label}`));
    transport.spawn(REQUEST);
    clock.advanceTo(transport.endTimeMs);
    expect(log.filter((l) => !l.startsWith('o:'))).toEqual(['m:user sent hi', 'r:50x12@1500']);
    expect(log.filter((l) => l.startsWith('o:'))).toHaveLength(7);
    expect(transport.recordedInputs).toEqual([{ t: 1200, data: 'hi\r' }]);
    expect([transport.cols, transport.rows]).toEqual([40, 10]);
  });

  it('renders the recorded session on a screen that follows it', () => {
    const clock = new VirtualScheduler();
    const transport = new ReplayTransport(small(), clock);
    const screen = new TerminalScreen({ cols: transport.cols, rows: transport.rows });
    transport.onResize(({ cols, rows }) => screen.resize(cols, rows));
    transport.onData((chunk) => screen.write(chunk));
    transport.spawn(REQUEST);
    clock.advanceTo(1400);
    expect(screen.viewportText()).toContain('✢ Thinking… (1s · esc to interrupt)');
    expect(screen.windowTitle).toBe('✢ claude');
    clock.advanceTo(transport.endTimeMs);
    expect(screen.viewportText()).toContain('⏺ Hello! How can I help?');
    expect(screen.viewportLines().at(-2)).toBe('❯');
    expect(screen.windowTitle).toBe('claude');
    expect(screen.cols).toBe(50);
    expect(screen.modes().bracketedPaste).toBe(true);
    screen.dispose();
  });

  it('records what the driver writes and resizes with times since spawn', () => {
    const clock = new VirtualScheduler(500);
    const transport = new ReplayTransport(cast([[1, 'o', 'x']]), clock);
    transport.spawn(REQUEST);
    clock.advanceBy(300);
    transport.write('hello');
    transport.resize(30, 8);
    clock.advanceBy(100);
    transport.write('\r');
    expect(transport.writes).toEqual([
      { t: 300, data: 'hello' },
      { t: 400, data: '\r' },
    ]);
    expect(transport.requestedResizes).toEqual([{ t: 300, cols: 30, rows: 8 }]);
  });

  it('does not exit at the end unless asked to', () => {
    const clock = new VirtualScheduler();
    const transport = new ReplayTransport(cast([[0.1, 'o', 'x']]), clock);
    const exits: ExitInfo[] = [];
    transport.onExit((info) => exits.push(info));
    transport.spawn(REQUEST);
    clock.advanceTo(60_000);
    expect(exits).toEqual([]);
  });

  it('exits after the last event when exitAtEnd is set', () => {
    const clock = new VirtualScheduler();
    const transport = new ReplayTransport(cast([[0.1, 'o', 'x']]), clock, { exitAtEnd: true, exitCode: 7 });
    const exits: Array<[ExitInfo, number]> = [];
    transport.onExit((info) => exits.push([info, clock.now()]));
    transport.spawn(REQUEST);
    clock.advanceTo(100);
    expect(exits).toEqual([[{ exitCode: 7, signal: null }, 100]]);
    expect(transport.exitInfo).toEqual({ exitCode: 7, signal: null });
  });

  it('stops playback on kill, reports one SIGHUP exit and leaves no timer', () => {
    const clock = new VirtualScheduler();
    const transport = new ReplayTransport(cast([[0.1, 'o', 'a'], [0.2, 'o', 'b']]), clock);
    const data: string[] = [];
    const exits: ExitInfo[] = [];
    transport.onData((chunk) => data.push(chunk));
    transport.onExit((info) => exits.push(info));
    transport.spawn(REQUEST);
    clock.advanceTo(150);
    transport.kill();
    transport.kill();
    clock.advanceTo(1000);
    expect(data).toEqual(['a']);
    expect(exits).toEqual([{ exitCode: null, signal: 'SIGHUP' }]);
    expect(clock.pendingCount()).toBe(0);
  });

  it('stops delivering when a data listener kills the transport mid-instant', () => {
    const clock = new VirtualScheduler();
    const transport = new ReplayTransport(cast([[0.1, 'o', 'a'], [0.1, 'o', 'b']]), clock);
    const data: string[] = [];
    transport.onData((chunk) => {
      data.push(chunk);
      transport.kill();
    });
    transport.spawn(REQUEST);
    clock.advanceTo(1000);
    expect(data).toEqual(['a']);
  });

  it('refuses a second spawn and writes before spawn', () => {
    const transport = new ReplayTransport(cast([]), new VirtualScheduler());
    expect(() => transport.write('x')).toThrow(TerminalError);
    transport.spawn(REQUEST);
    expect(() => transport.spawn(REQUEST)).toThrow(SpawnError);
    expect(transport.pid).toBeUndefined();
  });

  it('replays deterministically: two runs give identical screens at every step', () => {
    const run = (): string[] => {
      const clock = new VirtualScheduler();
      const transport = new ReplayTransport(small(), clock);
      const screen = new TerminalScreen({ cols: transport.cols, rows: transport.rows });
      transport.onResize(({ cols, rows }) => screen.resize(cols, rows));
      transport.onData((chunk) => screen.write(chunk));
      transport.spawn(REQUEST);
      const frames: string[] = [];
      for (let t = 0; t <= transport.endTimeMs; t += 50) {
        clock.advanceTo(t);
        frames.push(`${t}|${screen.viewportText()}|${JSON.stringify(screen.cursor())}`);
      }
      screen.dispose();
      return frames;
    };
    expect(run()).toEqual(run());
  });

  it('refuses a recording whose size is beyond the terminal limits, naming it', () => {
    const huge: Asciicast = { header: { version: 2, width: 10_000, height: 10_000 }, events: [] };
    expect(() => new ReplayTransport(huge, new VirtualScheduler())).toThrow(TerminalError);
    expect(() => new ReplayTransport(huge, new VirtualScheduler())).toThrow(/recording header width must be an integer between 1 and 1000 .*got 10000/);
  });

  it('refuses a requested resize beyond the terminal limits, like the real PTY', () => {
    const transport = new ReplayTransport(cast([[0, 'o', 'a']]), new VirtualScheduler());
    transport.spawn(REQUEST);
    expect(() => transport.resize(10_000, 10_000)).toThrow(/cols must be an integer between 1 and 1000 \(the widest terminal specterm supports\), got 10000/);
    transport.resize(1000, 500);
    expect(transport.requestedResizes).toEqual([{ t: 0, cols: 1000, rows: 500 }]);
  });
});
