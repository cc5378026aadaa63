/**
 * What the host's ring must hold: enough of a streaming agent's recent output that a restarted
 * daemon, replaying it into a fresh screen, rebuilds the screen its predecessor had — viewport
 * and the daemon's 256 scrollback rows (SPEC_READ_SCROLLBACK_ROWS, ≥ the guard frame's 200).
 * The agent is the daemon benchmark's (bench/fake-agent.mjs: an Ink-style block repainted at
 * 10 fps over ~2 KB/s of transcript, after a 2,500-line opening transcript); the ring is the
 * host's default. A ring too small for it fails here (64 KiB does: its replay holds too few rows).
 */
import { describe, expect, it } from 'vitest';
import { ByteRing } from '../../src/host/byte-ring.js';
import { DEFAULT_RING_BYTES } from '../../src/host/host-server.js';
import { SPEC_READ_SCROLLBACK_ROWS, TerminalScreen } from '../../src/terminal/index.js';
// @ts-expect-error: the benchmark's agent is plain JavaScript, without types.
import { FRAME_MS, StreamAgent } from '../../bench/fake-agent.mjs';

const COLS = 120;
const ROWS = 40;

async function settled(screen: TerminalScreen): Promise<void> {
  for (let i = 0; i < 500 && !screen.isParserAtRest(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The live daemon's screen and the host's ring after `seconds` of the agent's output. */
async function stream(ringBytes: number, seconds: number): Promise<{ live: TerminalScreen; ring: ByteRing }> {
  const agent = new StreamAgent({ cols: COLS, turnMs: 15_000, idleMs: 5_000, seed: 7, historyLines: 2500 }) as { tick(now: number): string };
  const live = new TerminalScreen({ cols: COLS, rows: ROWS, scrollback: SPEC_READ_SCROLLBACK_ROWS });
  const ring = new ByteRing(ringBytes);
  for (let t = 0; t <= seconds * 1000; t += FRAME_MS as number) {
    const text = agent.tick(t);
    if (!text) continue;
    live.write(text);
    ring.append(Buffer.from(text, 'utf8'));
  }
  await settled(live);
  return { live, ring };
}

/** A restarted daemon's screen: the ring's bytes into a fresh screen (the replay starts on a character boundary). */
async function rebuild(ring: ByteRing): Promise<TerminalScreen> {
  const { bytes } = ring.readSince(0);
  let skip = 0;
  while (skip < 3 && skip < bytes.length && (bytes[skip]! & 0xc0) === 0x80) skip++;
  const screen = new TerminalScreen({ cols: COLS, rows: ROWS, scrollback: SPEC_READ_SCROLLBACK_ROWS });
  screen.write(bytes.subarray(skip).toString('utf8'));
  await settled(screen);
  return screen;
}

describe('the host ring rebuilds a restarted daemon\'s screen', () => {
  it.each([
    ['in the middle of a turn', 47],
    ['after a turn, at the prompt', 58],
  ])('the default ring, %s: the viewport and every scrollback row equal the live screen\'s', async (_when, seconds) => {
    const { live, ring } = await stream(DEFAULT_RING_BYTES, seconds);
    // The ring has wrapped: the opening transcript and more are gone from it.
    expect(ring.start).toBeGreaterThan(0);
    const rebuilt = await rebuild(ring);
    expect(live.scrollbackLines().length).toBeGreaterThanOrEqual(SPEC_READ_SCROLLBACK_ROWS);
    expect(rebuilt.scrollbackLines()).toEqual(live.scrollbackLines());
    expect(rebuilt.viewportLines()).toEqual(live.viewportLines());
  });

  it('a 64 KiB ring does not: its replay holds fewer rows than the daemon keeps', async () => {
    const { live, ring } = await stream(64 * 1024, 47);
    const rebuilt = await rebuild(ring);
    expect(rebuilt.scrollbackLines()).not.toEqual(live.scrollbackLines());
  });
});
