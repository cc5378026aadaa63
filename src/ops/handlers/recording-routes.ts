/**
 * The recording routes: start/stop recording a session, list recordings, download one, and replay one on the
 * daemon (its state timeline; one instant explained). Input is validated at the edge by the
 * route table (a name is a plain word there already); refusals become problem documents.
 *
 * @module
 */
import type { RouteHandlers } from '../contracts.js';
import { recordingExplainAt, recordingTimeline } from '../../daemon/recordings-replay.js';
import type { Recordings } from '../../daemon/recordings.js';
import type { SessionManager } from '../../daemon/session-manager.js';

export function recordingRoutes(manager: SessionManager, recordings: Recordings): RouteHandlers {
  return ({
    startRecording: (input) => recordings.start(manager.get(input.params.id), input.body.name),
    stopRecording: (input) => { manager.get(input.params.id); return recordings.stop(input.params.id); },
    listRecordings: () => ({ recordings: recordings.list() }),
    getRecordingCast: (input) => ({ name: input.params.name, file_name: `${input.params.name}.cast`, content: recordings.castText(input.params.name) }),
    getRecordingTimeline: (input) => recordingTimeline(recordings.load(input.params.name)),
    explainRecording: (input) => recordingExplainAt(recordings.load(input.params.name), input.query.at_ms),
  });
}
