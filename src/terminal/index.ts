/**
 * Terminal edge: the PTY transport (real child processes), the headless screen, terminal modes
 * and write chunking. The only entry point of `src/terminal` for code outside the folder.
 *
 * @module
 */

// Transport contract (shared with src/recording's replay transport).
export type { Disposable, ExitInfo, PtyTransport, PtyTransportFactory, SpawnRequest } from './transport.js';

// Real PTY on @lydell/node-pty.
export { createPtyTransport, DEFAULT_KILL_GRACE_MS, signalGroup, type PtyTransportHandle, type PtyTransportOptions } from './pty-transport.js';

// Headless emulator with the spec-format §9.1 snapshot rules.
export { TerminalScreen, DEFAULT_SCROLLBACK_ROWS, type CursorPosition, type TerminalScreenOptions } from './terminal-screen.js';
export { SPEC_READ_SCROLLBACK_ROWS } from './scrollback-budget.js';

// The screen as the bytes that redraw it (terminal stream snapshots, ANSI screen reads).
export { redrawsExactly, serializeScreen, type SerializeScreenOptions } from './screen-serializer.js';

// The last payload of each OSC number a spec reads (`osc` leaves).
export { OscTracker, MAX_TRACKED_OSC, MAX_OSC_PAYLOAD_CHARS } from './osc-tracker.js';

// Modes set by the child and the sequences that depend on them.
export {
  readTerminalModes,
  wrapBracketedPaste,
  encodeArrowKey,
  FOCUS_IN,
  FOCUS_OUT,
  BRACKETED_PASTE_START,
  BRACKETED_PASTE_END,
  type TerminalModes,
  type ModeSource,
} from './terminal-modes.js';

// Surrogate-safe chunking for paced writes.
export { chunkPreservingSurrogates, WIN32_BODY_CHUNK_UNITS } from './write-chunking.js';

// Listener isolation shared by the transports.
export { ListenerSet, warnListenerError, type ListenerErrorSink } from './listener-set.js';

// Errors and the terminal size limits.
export {
  SpawnError,
  TerminalError,
  assertDimension,
  dimensionProblem,
  MAX_COLS,
  MAX_ROWS,
  type Dimension,
  type SpawnErrorCode,
  type SpawnErrorDetails,
  type TerminalErrorCode,
} from './errors.js';
