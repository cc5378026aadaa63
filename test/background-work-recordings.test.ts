/**
 * Background work on the real recordings (issue 29 item 4): Claude Code 2.1.332 runs a shell in
 * the background (`sleep 120`) and answers; its footer then reads "1 shell · ↓ to manage". The
 * driver reports it beside the state — absent before the shell starts, present on the idle
 * state the turn ends in — at the three recorded sizes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';
import type { StateView } from '../src/driver/events.js';

const RECORDINGS = join(import.meta.dirname, '../specs/claude-code/recordings');

function replay(name: string): Array<{ t: number; state: StateView }> {
  const loaded = loadSpecRef('claude-code');
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const seen: Array<{ t: number; state: StateView }> = [];
  const r = replaySession({
    cast: parseAsciicast(readFileSync(join(RECORDINGS, `${name}.cast`), 'utf8')),
    spec: loaded.spec,
    tailMs: 0,
    onEvent: (ev, atMs) => { if (ev.kind === 'state_changed') seen.push({ t: atMs, state: ev.state }); },
  });
  r.driver.shutdown();
  return seen;
}

describe('claude-code background shell (real recordings)', () => {
  it.each(['background-shell', 'background-shell-60x20', 'background-shell-200x50'])('%s: idle with 1 background shell once the footer says so, none before', (name) => {
    const seen = replay(name);
    const firstBusy = seen.findIndex((s) => s.state.status === 'generating');
    expect(firstBusy).toBeGreaterThan(0);
    // Before the turn: idle at the prompt with nothing running.
    expect(seen.slice(0, firstBusy).every((s) => s.state.background === undefined)).toBe(true);
    expect(seen[firstBusy]!.state.background).toBeUndefined();
    // The footer shows the shell while the turn still runs (reported on the busy state too) and
    // when the turn ends idle: the flag is on the idle state.
    const turnEnd = seen.findIndex((s, i) => i > firstBusy && s.state.status === 'idle');
    expect(turnEnd).toBeGreaterThan(firstBusy);
    expect(seen[turnEnd]!.state.background).toEqual({ count: 1, what: '1 background shell', items: [{ id: 'shell', count: 1 }] });
  });
});
