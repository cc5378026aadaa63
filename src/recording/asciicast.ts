/**
 * asciicast v2 (asciinema's format): a JSON header line, then one `[time, code, data]` JSON
 * array per line. We read and write the subset specterm needs: codes `o` (output), `i` (input),
 * `r` (resize, `"COLSxROWS"`) and `m` (marker).
 *
 * @module
 */

import { MAX_COLS, MAX_ROWS, dimensionProblem } from '../terminal/errors.js';
import { RecordingError } from './errors.js';

/** The header line. Unknown keys are kept (asciinema adds e.g. `idle_time_limit`, `theme`). */
export interface AsciicastHeader {
  version: 2;
  /** Terminal width in columns. */
  width: number;
  /** Terminal height in rows. */
  height: number;
  /** Unix time (seconds) the recording started. */
  timestamp?: number;
  /** Captured environment (asciinema records `SHELL` and `TERM`). */
  env?: Record<string, string>;
  title?: string;
  [key: string]: unknown;
}

/** Event codes: output, input, resize, marker. */
export type CastEventType = 'o' | 'i' | 'r' | 'm';

/** One event line. */
export interface CastEvent {
  /** Seconds since the start of the recording. */
  t: number;
  type: CastEventType;
  /** Output/input text, `"COLSxROWS"` for resizes, label for markers. */
  data: string;
}

/** A parsed recording. */
export interface Asciicast {
  header: AsciicastHeader;
  /** Events in file order; times never decrease. */
  events: CastEvent[];
  /** Set when `tolerateTruncatedTail` dropped an incomplete last line: its 1-based number. */
  truncatedTailLine?: number;
}

/** Options for {@link parseAsciicast}. */
export interface ParseAsciicastOptions {
  /** File name or label used in error messages. */
  source?: string;
  /**
   * Keep the events before an incomplete (not valid JSON) last line instead of failing: a
   * recorder that was killed mid-write leaves such a line.
   */
  tolerateTruncatedTail?: boolean;
}

const EVENT_TYPES: readonly CastEventType[] = ['o', 'i', 'r', 'm'];
const RESIZE_DATA = /^(\d+)x(\d+)$/;

/** Shortens a value for an error message. */
function preview(value: string): string {
  return value.length > 80 ? `${value.slice(0, 77)}...` : value;
}

/** Why `data` is not a valid `r` event size, or null when it is. */
function resizeProblem(data: string): string | null {
  const match = RESIZE_DATA.exec(data);
  const cols = Number(match?.[1]);
  const rows = Number(match?.[2]);
  if (!match || cols < 1 || rows < 1) {
    return `resize data must be "COLSxROWS" with whole sizes of at least 1 (e.g. "120x40"), got ${preview(JSON.stringify(data))}`;
  }
  if (cols > MAX_COLS || rows > MAX_ROWS) {
    return `resize to ${preview(JSON.stringify(data))} is larger than specterm supports: at most ${MAX_COLS} columns and ${MAX_ROWS} rows; re-record in a smaller terminal or edit this event`;
  }
  return null;
}

/**
 * Parses `"COLSxROWS"` (the data of an `r` event).
 *
 * @returns the geometry, or undefined when `data` is not a valid size within the terminal limits.
 */
export function parseResizeData(data: string): { cols: number; rows: number } | undefined {
  if (resizeProblem(data) !== null) return undefined;
  const [cols, rows] = data.split('x').map(Number) as [number, number];
  return { cols, rows };
}

/**
 * Parses an asciicast v2 recording. Blank lines are skipped. Event times must not decrease
 * (equal times are fine). Only {@link RecordingError} is ever thrown; its message names the
 * line, what was expected, what was found and how to fix it.
 *
 * @param text - the whole file.
 * @param options - a source label, or {@link ParseAsciicastOptions}.
 * @example parseAsciicast('{"version":2,"width":80,"height":24}\n[0.5,"o","hi"]\n')
 */
export function parseAsciicast(text: string, options?: string | ParseAsciicastOptions): Asciicast {
  const opts: ParseAsciicastOptions = typeof options === 'string' ? { source: options } : (options ?? {});
  const where = (line: number): string => `${opts.source ? `${opts.source}: ` : ''}line ${line}`;
  const fail = (line: number, message: string, cause?: unknown): never => {
    throw new RecordingError('RECORDING_INVALID', `${where(line)}: ${message}`, { line, source: opts.source, cause });
  };
  if (typeof text !== 'string') {
    fail(1, `expected the recording as text, got ${typeof text}; read the file as UTF-8`);
  }

  const lines = text.split('\n');
  let lastContentIndex = lines.length - 1;
  while (lastContentIndex >= 0 && (lines[lastContentIndex] as string).trim() === '') lastContentIndex--;
  if (lastContentIndex < 0) {
    fail(1, 'empty recording; expected a JSON header line like {"version": 2, "width": 80, "height": 24}');
  }

  let index = 0;
  while ((lines[index] as string).trim() === '') index++;
  const headerLine = index + 1;
  const header = parseHeader((lines[index] as string).replace(/\r$/, ''), headerLine, fail);

  const events: CastEvent[] = [];
  let previousT = 0;
  let truncatedTailLine: number | undefined;
  for (index++; index <= lastContentIndex; index++) {
    const raw = (lines[index] as string).replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const lineNo = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (cause) {
      if (index === lastContentIndex) {
        if (opts.tolerateTruncatedTail) {
          truncatedTailLine = lineNo;
          break;
        }
        fail(
          lineNo,
          `incomplete JSON at the end of the file (${preview(raw)}); the recording was probably cut off while being written: delete the last line or parse with tolerateTruncatedTail`,
          cause,
        );
      }
      fail(lineNo, `invalid JSON (${preview(raw)}); each event line must be a JSON array [time, code, data]`, cause);
    }
    const event = toEvent(value, raw, lineNo, fail);
    if (event.t < previousT) {
      fail(lineNo, `time ${event.t} is earlier than the previous event's ${previousT}; event times must not decrease (sort the events by time)`);
    }
    previousT = event.t;
    events.push(event);
  }
  return truncatedTailLine === undefined ? { header, events } : { header, events, truncatedTailLine };
}

type Fail = (line: number, message: string, cause?: unknown) => never;

function parseHeader(raw: string, line: number, fail: Fail): AsciicastHeader {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (cause) {
    fail(
      line,
      `header is not valid JSON (${preview(raw)}); an asciicast v2 file starts with one JSON object line like {"version": 2, "width": 80, "height": 24} (asciicast v1 files are a single JSON document and are not supported)`,
      cause,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(line, `header must be a JSON object, got ${preview(raw)}; the first line must be like {"version": 2, "width": 80, "height": 24}`);
  }
  const header = value as Record<string, unknown>;
  if (header.version !== 2) {
    fail(line, `unsupported asciicast version ${JSON.stringify(header.version)}; specterm reads version 2 (convert with \`asciinema convert -f asciicast-v2\`)`);
  }
  for (const [field, dimension] of [['width', 'cols'], ['height', 'rows']] as const) {
    const problem = dimensionProblem(dimension, header[field], `header field ${field}`);
    if (problem !== null) fail(line, `${problem}; set the terminal size the recording was made with (at most ${MAX_COLS} x ${MAX_ROWS})`);
  }
  if (header.timestamp !== undefined && (typeof header.timestamp !== 'number' || !Number.isFinite(header.timestamp))) {
    fail(line, `header field timestamp must be a number (Unix seconds), got ${JSON.stringify(header.timestamp)}; remove it or fix its type`);
  }
  if (header.title !== undefined && typeof header.title !== 'string') {
    fail(line, `header field title must be a string, got ${JSON.stringify(header.title)}; remove it or fix its type`);
  }
  if (header.env !== undefined) {
    const env = header.env;
    if (typeof env !== 'object' || env === null || Array.isArray(env) || Object.values(env).some((v) => typeof v !== 'string')) {
      fail(line, `header field env must be an object of strings, got ${preview(JSON.stringify(env))}; remove it or fix its values`);
    }
  }
  return header as AsciicastHeader;
}

function toEvent(value: unknown, raw: string, line: number, fail: Fail): CastEvent {
  if (!Array.isArray(value) || value.length !== 3) {
    fail(line, `expected [time, code, data], got ${preview(raw)}`);
  }
  const [t, type, data] = value as unknown[];
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) {
    fail(line, `expected [time, code, data] with time a number of seconds >= 0, got time ${JSON.stringify(t)}`);
  }
  if (typeof type !== 'string' || !EVENT_TYPES.includes(type as CastEventType)) {
    fail(line, `unknown event code ${JSON.stringify(type)}; expected one of "o" (output), "i" (input), "r" (resize), "m" (marker)`);
  }
  if (typeof data !== 'string') {
    fail(line, `expected [time, code, data] with data a string, got ${preview(JSON.stringify(data) ?? String(data))}`);
  }
  const problem = type === 'r' ? resizeProblem(data as string) : null;
  if (problem !== null) fail(line, problem);
  return { t: t as number, type: type as CastEventType, data: data as string };
}

/** Rounds seconds to asciinema's precision (microseconds) and removes float noise. */
function roundSeconds(t: number): number {
  return Number.isFinite(t) && t > 0 ? Math.round(t * 1e6) / 1e6 : 0;
}

/**
 * Serialises the header as one JSON line (without the trailing newline), `version` first.
 *
 * @param header - width, height and optional fields.
 */
export function serializeAsciicastHeader(header: Omit<AsciicastHeader, 'version'> & { version?: 2 }): string {
  const { version: _version, width, height, ...rest } = header;
  return JSON.stringify({ version: 2, width, height, ...rest });
}

/**
 * Serialises one event as a JSON line `[t, code, data]` (without the trailing newline); time in
 * seconds with at most 6 decimals, as asciinema writes it.
 *
 * @param event - the event.
 */
export function serializeAsciicastEvent(event: CastEvent): string {
  return JSON.stringify([roundSeconds(event.t), event.type, event.data]);
}
