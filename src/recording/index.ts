/**
 * Recordings: asciicast v2 reading/writing, the live recorder and the replay transport.
 * The only entry point of `src/recording` for code outside the folder.
 *
 * @module
 */

// asciicast v2 format.
export {
  parseAsciicast,
  parseResizeData,
  serializeAsciicastHeader,
  serializeAsciicastEvent,
  type Asciicast,
  type AsciicastHeader,
  type CastEvent,
  type CastEventType,
  type ParseAsciicastOptions,
} from './asciicast.js';

// Writing a live session.
export { AsciicastRecorder, type AsciicastRecorderOptions } from './recorder.js';

// Playing a recording as a PtyTransport on a Scheduler.
export { ReplayTransport, toReplayMs, type ReplayTransportOptions, type ReplayWrite, type ReplayResize } from './replay-transport.js';

// Errors.
export { RecordingError, type RecordingErrorCode } from './errors.js';
