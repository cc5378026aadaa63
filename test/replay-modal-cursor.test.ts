/**
 * A state change list (`specterm replay`, a recording's timeline, a live harness session) lists
 * what the session showed: a person arrowing through a modal's options is one approval, not a
 * record per step, while the driver itself reports each move (the dashboard marks the cursor).
 */
import { describe, expect, it } from 'vitest';
import { formatChangeJson } from '../src/cli/replay-format.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';
import { APPROVAL, approvalWithCursorOn, baseSpec, IDLE } from './helpers/driver-harness.js';
import { paint } from './helpers/scripted-transport.js';


function cast(frames: Array<[number, string[]]>): string {
  return [JSON.stringify({ version: 2, width: 60, height: 16 }), ...frames.map(([t, lines]) => JSON.stringify([t, 'o', paint(lines)]))].join('\n');
}

describe('state changes of a replay', () => {
  it('list one approval while its cursor moves, and the driver still reports each move', () => {
    const moves: number[][] = [];
    const r = replaySession({
      cast: parseAsciicast(cast([[0.1, IDLE], [1, APPROVAL], [1.5, approvalWithCursorOn(2)], [2, approvalWithCursorOn(3)], [2.5, IDLE]])),
      spec: baseSpec(),
      onEvent: (ev) => { if (ev.kind === 'state_changed' && ev.modal) moves.push(ev.modal.buttons.filter((b) => b.current).map((b) => b.index)); },
    });
    r.driver.shutdown();
    // (the approval state outlives its modal by the stable_ms of approval→idle: a record without one)
    expect(r.changes.map((c) => [c.state, c.modal !== null])).toEqual([['starting', false], ['idle', false], ['approval', true], ['approval', false], ['idle', false]]);
    expect(moves).toEqual([[1], [2], [3]]);
    const line = JSON.parse(formatChangeJson(r.changes[2]!)) as { modal: { buttons: unknown[] } };
    expect(line.modal.buttons[0]).toEqual({ index: 1, label: 'Yes' }); // the JSON-lines contract is unchanged
  });
});
