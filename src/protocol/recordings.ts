/**
 * Recordings made from the dashboard: start/stop recording a session (an asciicast v2 file under
 * the daemon's state dir, 0600), list them, and replay one through the driver on the daemon — its
 * state timeline, and the explanation at any instant (the content of `specterm explain`).
 * A recording's name is its whole identity on the wire: a plain word, never a path.
 * @module
 */
import { z } from 'zod';
import { EpochMs, Id } from './common.js';
import { DebugTransition } from './debug.js';
import { NodeName, Unreachable } from './node.js';
import { StateStatus } from './sessions.js';

/** 1–64 of A–Z a–z 0–9 _ -: no dot, no slash, so a name can never leave the recordings dir. */
export const RecordingName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a recording name is 1–64 characters of A–Z, a–z, 0–9, _ or - (no dots or slashes)')
  .meta({ examples: ['refactor-1764600000'] });

/** A recording asked for by name; on a hub by `<node>_<name>` too, so up to a node name (63) and `_` longer. */
export const RecordingParams = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a recording name is 1–64 characters of A–Z, a–z, 0–9, _ or - (on a hub, after `<node>_`)'),
});

/** `POST …/sessions/:id/recording`: start recording (the name defaults to `<session>-<unix seconds>`). */
export const StartRecordingRequest = z.strictObject({ name: RecordingName.optional() }).meta({ examples: [{ name: 'before-the-fix' }] });

export const RecordingInfo = z.strictObject({
  name: RecordingName,
  /** Served by a hub: the node that holds the recording. */
  node: NodeName.optional(),
  /** Served by a hub: the node did not answer; this is the recording as last listed. */
  unreachable: Unreachable.optional(),
  session_id: Id.nullable(),
  /** The session's name when it was recorded (null: it had none, or the recording predates this). */
  session_name: z.string().nullable().optional(),
  spec_id: z.string(),
  /** Still being written (its file appears under the name when it stops). */
  active: z.boolean(),
  bytes: z.number().int().nonnegative(),
  created_at: EpochMs,
  duration_ms: z.number().int().nonnegative().nullable().meta({ description: 'null while recording' }),
});
export type RecordingInfo = z.infer<typeof RecordingInfo>;

export const RecordingList = z.strictObject({ recordings: z.array(RecordingInfo) });

/** `GET /api/v1/recordings/:name/cast`: the asciicast v2 file, for a client to save as `file_name`. */
export const RecordingCast = z.strictObject({
  name: RecordingName,
  file_name: z.string().meta({ description: '`<name>.cast`' }),
  content: z.string().meta({ description: 'the asciicast v2 text (a header line, then one event a line)' }),
});
export type RecordingCast = z.infer<typeof RecordingCast>;

/** `GET /api/v1/recordings/:name/timeline`: the states the replayed driver went through. */
export const RecordingTimeline = z.strictObject({
  name: RecordingName,
  spec_id: z.string(),
  end_ms: z.number().int().nonnegative().meta({ description: 'time of the last event, ms of recording time' }),
  states: z.array(z.strictObject({ at_ms: z.number().int().nonnegative(), state: z.string(), label: z.string(), status: z.string() })),
});
export type RecordingTimeline = z.infer<typeof RecordingTimeline>;

export const RecordingExplainQuery = z.strictObject({
  at_ms: z.coerce.number().int().nonnegative().max(7 * 24 * 3600 * 1000).optional().meta({ description: 'ms of recording time; default the end' }),
});

/** `GET /api/v1/recordings/:name/explain?at_ms=`: the replay stopped at one instant. */
export const RecordingExplain = z.strictObject({
  at_ms: z.number().int().nonnegative(),
  end_ms: z.number().int().nonnegative(),
  state: z.strictObject({ id: z.string(), label: z.string(), status: StateStatus }),
  state_age_ms: z.number().int().nonnegative(),
  screen: z.array(z.string()).meta({ description: 'the viewport at that instant' }),
  cursor_row: z.number().int(),
  sections: z.array(z.strictObject({ id: z.string(), from_row: z.number().int(), to_row: z.number().int() })),
  transitions: z.array(DebugTransition),
  text: z.string().meta({ description: 'the report `specterm explain` prints for this instant' }),
});
export type RecordingExplain = z.infer<typeof RecordingExplain>;
