/**
 * A recording replayed through the harness on the daemon — the same driver in virtual time that
 * `specterm replay` and `specterm explain` run: the state timeline, and one instant explained
 * (with the very report `specterm explain` prints). The only daemon module that imports the
 * harness (eslint.config.js allows it here alone).
 *
 * @module
 */
import { stateById, statusForState } from '../core/spec/model.js';
import { explainReplayAt, formatExplanation, recordingEndMs } from '../harness/explain.js';
import { replaySession } from '../harness/replay-session.js';
import { toDebugTransitions } from '../protocol/debug.js';
import type { RecordingExplain, RecordingTimeline } from '../protocol/recordings.js';
import { holdMsIn } from './debug-views.js';
import { RecordingsError, type LoadedRecording } from './recordings.js';



/** Every state change of the replay (the initial state included), at ms of recording time. */
export function recordingTimeline(r: LoadedRecording): RecordingTimeline {
  const replay = replaySession({ cast: r.cast, spec: r.spec, tailMs: 0 });
  try {
    return {
      name: r.name,
      spec_id: String(r.spec.id),
      end_ms: Math.round(replay.endMs),
      states: replay.changes.map((c) => ({ at_ms: Math.round(c.t * 1000), state: c.state, label: stateById(r.spec, c.state)?.label ?? c.state, status: c.status })),
    };
  } finally {
    replay.driver.shutdown();
  }
}

/** The replay stopped at `atMs`, explained. */
export function recordingExplainAt(r: LoadedRecording, at: number | undefined): RecordingExplain {
  const endMs = recordingEndMs(r.cast);
  const atMs = at ?? endMs;
  // As `specterm explain` refuses --at beyond the end: the recording says nothing about later.
  if (atMs > endMs) {
    throw new RecordingsError('RECORDING_AT_OUT_OF_RANGE', `at_ms=${atMs} is beyond the end of recording "${r.name}" (its last event is at ${endMs} ms); pick an instant between 0 and ${endMs}`);
  }
  const e = explainReplayAt({ cast: r.cast, spec: r.spec, atMs });
  const state = stateById(r.spec, e.state);
  const start = e.viewportStartRow;
  return {
    at_ms: e.atMs,
    end_ms: Math.round(e.endMs),
    state: { id: e.state, label: e.label, status: state ? statusForState(state) : (e.status as RecordingExplain['state']['status']) },
    state_age_ms: Math.max(0, Math.round(e.stateAgeMs)),
    screen: e.frameLines.slice(start),
    cursor_row: e.cursor.row - start,
    sections: e.sections.map((s) => ({ id: s.id, from_row: s.fromLine - start, to_row: s.toLine - start })),
    transitions: toDebugTransitions(e.transitions, e.atMs, holdMsIn(r.spec, e.state)),
    text: formatExplanation(e),
  };
}
