/**
 * spec_drift on the VirtualScheduler: an unrecognised prompt under idle/generating is reported
 * once per episode after the delay, with the frame saved as a replayable cast; an ordinary
 * numbered list in an answer and a modal the spec recognises are not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paint } from '../../test/helpers/scripted-transport.js';
import { APPROVAL, D, IDLE, harness } from '../../test/helpers/driver-harness.js';
import { TerminalScreen } from '../terminal/terminal-screen.js';
import type { DashboardEvent } from './events.js';

/** A prompt the spec does not know, drawn as every CLI draws one: in place of the input box. */
const PICKER = ['Agent v1', '❯ set up the tests', '', D, 'Which test framework?', '❯ 1. Vitest', '  2. Jest', '  3. Type something', D, 'Enter to select · Esc to cancel'];
/**
 * Answers that QUOTE a prompt's hints and a cursor-marked list, with the live input box below
 * them: the hints are transcript text, no prompt is live (a Claude-like and a Codex-like frame).
 */
const QUOTED_HINTS = ['Agent v1', '❯ how do I pick a framework?', '', '● The picker footer says', '  Enter to select · Esc to cancel', '  and ↑/↓ to navigate.', '', D, '❯ ', D, '  ? for shortcuts'];
const QUOTED_CODEX = ['› explain the picker', '', '• It draws:', '', '  › 1. Vitest', '    2. Jest', '', '  Press enter to confirm or esc to cancel', '', '› Ask Codex to do anything', '', '  ? for shortcuts'];
const LIST_ANSWER = ['Agent v1', '● The plan:', '1. Install the deps', '2. Run the tests', '3. Fix what fails', D, '❯ ', D, '  ? for shortcuts'];

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

function drifts(events: DashboardEvent[]) {
  return events.flatMap((e) => (e.kind === 'spec_drift' ? [e] : []));
}

function start(afterMs = 5000) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-drift-test-'));
  dirs.push(dir);
  const h = harness(undefined, { specDrift: { afterMs, dir } });
  h.driver.start();
  h.tx.emit(paint(IDLE));
  h.at(1000);
  expect(h.driver.getCurrentView()?.state.id).toBe('idle');
  return h;
}

describe('spec_drift', () => {
  it('fires once, afterMs into an unrecognised prompt under idle, with the frame saved as a replayable cast', () => {
    const h = start();
    h.tx.emit(paint(PICKER));
    h.at(1000 + 4900);
    expect(drifts(h.events)).toEqual([]);
    h.at(1000 + 5300);
    const [ev, ...more] = drifts(h.events);
    expect(more).toEqual([]);
    expect(ev).toMatchObject({ kind: 'spec_drift', state: 'idle', status: 'idle', reason: 'option_block' });
    expect(ev!.rows).toContain('❯ 1. Vitest');
    const file = ev!.frame_file!;
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect((fs.statSync(path.dirname(file)).mode & 0o777).toString(8)).toBe('700');
    const [header, event] = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(header).toMatchObject({ version: 2, width: 60, height: 16 });
    const replay = new TerminalScreen({ cols: header.width, rows: header.height });
    replay.write(event[2]);
    expect(replay.viewportLines()).toEqual(h.driver.getScreen().split('\n'));
    // Still there a minute later: the same episode, no second event.
    h.at(70_000);
    expect(drifts(h.events)).toHaveLength(1);
  });

  it('starts a new episode after the prompt went away', () => {
    const h = start(2000);
    h.tx.emit(paint(PICKER));
    h.at(4000);
    h.tx.emit(paint(IDLE));
    h.at(6000);
    h.tx.emit(paint(PICKER));
    h.at(9000);
    expect(drifts(h.events)).toHaveLength(2);
  });

  it('does not fire on an ordinary numbered list in an answer', () => {
    const h = start();
    h.tx.emit(paint(LIST_ANSWER));
    h.at(60_000);
    expect(h.driver.getCurrentView()?.state.id).toBe('idle');
    expect(drifts(h.events)).toEqual([]);
  });

  it('does not fire on hints or an option block an answer quotes above the live input box', () => {
    for (const frame of [QUOTED_HINTS, QUOTED_CODEX]) {
      const h = start();
      h.tx.emit(paint(frame));
      h.at(60_000);
      expect(h.driver.getCurrentView()?.state.id).toBe('idle');
      expect(drifts(h.events)).toEqual([]);
    }
  });

  it('does not fire on a modal the spec recognises (its own option block)', () => {
    const h = start();
    h.tx.emit(paint(APPROVAL));
    h.at(60_000);
    expect(h.driver.getCurrentView()?.state.id).toBe('approval');
    expect(drifts(h.events)).toEqual([]);
  });

  it('can be turned off', () => {
    const h = harness(undefined, { specDrift: false });
    h.driver.start();
    h.tx.emit(paint(PICKER));
    h.at(60_000);
    expect(drifts(h.events)).toEqual([]);
  });
});
