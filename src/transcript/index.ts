/**
 * Transcripts from a CLI's own history files: pure parsers per format (records in, transcript
 * events out), the builder that folds events into turns, and the follower that reads a file
 * incrementally (the only part that touches the file system, with history-path resolution).
 * @module
 */
export { TranscriptBuilder } from './builder.js';
export type { HistoryParser, TranscriptEvent } from './events.js';
export { HistoryFollower, type FollowerOptions } from './follower.js';
export { HistoryReader, type HistoryReaderOptions } from './history-reader.js';
export { findNewestOpenCodeSession, OpenCodeDbFollower } from './opencode-db-follower.js';
export { createHistoryParser, HistoryFormatError, PARSED_FORMATS } from './parsers/index.js';
export { diffFromHunks, diffWholeFile } from './diff.js';
