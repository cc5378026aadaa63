/**
 * Reading a `<file.cast>` argument: unreadable files and malformed lines become usage errors
 * that name the file and the line.
 *
 * @module
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAsciicast, RecordingError, type Asciicast } from '../recording/index.js';
import { CliUsageError } from './errors.js';

/**
 * Reads and parses an asciicast v2 recording.
 *
 * @param allowTruncated - keep the events before an incomplete last line instead of failing.
 * @throws CliUsageError naming the file (and the line, for a malformed recording).
 */
export function readRecordingArg(command: string, file: string, cwd: string, allowTruncated = false): Asciicast {
  const abs = path.resolve(cwd, file);
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new CliUsageError(command, `cannot read recording ${file}: ${why}; pass the path of an asciicast v2 .cast file`, 'CLI_UNREADABLE_RECORDING');
  }
  try {
    return parseAsciicast(text, { source: file, tolerateTruncatedTail: allowTruncated });
  } catch (err) {
    if (err instanceof RecordingError) {
      // The parser's hint names its API option; a CLI user needs the flag instead.
      const message = err.message.replace(/ or parse with tolerateTruncatedTail/, ', or pass --allow-truncated to use the complete lines');
      throw new CliUsageError(command, `invalid recording ${message}`, 'CLI_INVALID_RECORDING');
    }
    throw err;
  }
}
