/**
 * The recording routes: start/stop recording a session, list recordings, download one, and replay one on the
 * daemon (its state timeline; one instant explained). Input is validated at the edge by the
 * route table (a name is a plain word there already); refusals become problem documents.
 *
 * @module
 */
import { ApiError, type RouteHandlers } from '../../server/index.js';
import { recordingExplainAt, recordingTimeline } from '../recordings-replay.js';
import { RecordingsError, type Recordings } from '../recordings.js';
import type { SessionManager } from '../session-manager.js';
import { wrapErrors } from './session-routes.js';

const TITLES: Record<RecordingsError['code'], string> = {
  RECORDING_NOT_FOUND: 'Unknown recording', RECORDING_ACTIVE: 'Already recording', NOT_RECORDING: 'Not recording',
  RECORDING_NAME_TAKEN: 'Recording name taken', RECORDING_UNREADABLE: 'Unreadable recording', RECORDING_NAME_INVALID: 'Invalid recording name',
  RECORDING_AT_OUT_OF_RANGE: 'Instant out of range',
};
const FIELDS: Partial<Record<RecordingsError['code'], string>> = { RECORDING_NAME_TAKEN: '/name', RECORDING_NAME_INVALID: '/name', RECORDING_AT_OUT_OF_RANGE: '/at_ms' };

function problem<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof RecordingsError)) throw error;
    const path = FIELDS[error.code];
    throw new ApiError({
      status: error.status, code: error.code, title: TITLES[error.code], detail: error.message,
      errors: path ? [{ path, code: error.code, message: error.message }] : [],
    });
  }
}

export function recordingRoutes(manager: SessionManager, recordings: Recordings): RouteHandlers {
  return wrapErrors({
    startRecording: (input) => problem(() => recordings.start(manager.get(input.params.id), input.body.name)),
    stopRecording: (input) => problem(() => { manager.get(input.params.id); return recordings.stop(input.params.id); }),
    listRecordings: () => ({ recordings: recordings.list() }),
    getRecordingCast: (input) => problem(() => ({ name: input.params.name, file_name: `${input.params.name}.cast`, content: recordings.castText(input.params.name) })),
    getRecordingTimeline: (input) => problem(() => recordingTimeline(recordings.load(input.params.name))),
    explainRecording: (input) => problem(() => recordingExplainAt(recordings.load(input.params.name), input.query.at_ms)),
  });
}
