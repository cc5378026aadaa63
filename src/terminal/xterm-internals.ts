/**
 * The private fields of @xterm/headless 6.0.0 the headless screen reads (pinned by the exact
 * version): the synchronous write path, the buffers and the refresh events the row caches follow,
 * and the parser state. Each read has a check or a public-API fallback, so a changed xterm fails
 * loudly (the write path) or runs slower (the rest), never silently wrong.
 *
 * @module
 */
import type { Terminal as XtermTerminal } from '@xterm/headless';

/**
 * The internal synchronous write path of xterm 6.0.0. `Terminal.write()` parses on a later tick
 * (so state right after the call would be stale, and virtual-time replay would depend on the
 * event loop); the core's public `writeSync` logs a deprecation warning on every call. The write
 * buffer's own `writeSync` parses the chunk before returning and is what both delegate to.
 */
export interface SyncWriteBuffer {
  writeSync(data: string, maxSubsequentCalls?: number): void;
}

/** @throws Error when the pinned write path is gone (a different @xterm/headless version). */
export function getSyncWriteBuffer(term: XtermTerminal): SyncWriteBuffer {
  // `any`-free access to a private field: the shape is pinned by the exact @xterm/headless version.
  const core = (term as unknown as { _core?: { _writeBuffer?: Partial<SyncWriteBuffer> } })._core;
  const buffer = core?._writeBuffer;
  if (!buffer || typeof buffer.writeSync !== 'function') {
    throw new Error(
      '@xterm/headless no longer exposes _core._writeBuffer.writeSync; TerminalScreen relies on it for synchronous parsing. ' +
        'Pin @xterm/headless to 6.0.0 or update src/terminal/xterm-internals.ts for the new version.',
    );
  }
  return buffer as SyncWriteBuffer;
}

/** An xterm 6.0.0 internal buffer: the fields the row cache reads. */
export interface InternalBuffer {
  ybase: number;
  lines: { length: number; onTrim(listener: (amount: number) => void): { dispose(): void } };
}

/** The slice of xterm internals the row cache listens to (pinned by the exact @xterm/headless version). */
export interface XtermInternals {
  inputHandler: { onRequestRefreshRows(listener: (range: { start: number; end: number } | undefined) => void): { dispose(): void } };
  buffers: { active: InternalBuffer; alt: InternalBuffer };
}

/** The internals, or null when their shape is not the pinned one (callers fall back to the public API). */
export function getInternals(term: XtermTerminal): XtermInternals | null {
  const core = (term as unknown as { _core?: { _inputHandler?: unknown; _bufferService?: { buffers?: unknown } } })._core;
  const inputHandler = core?._inputHandler as XtermInternals['inputHandler'] | undefined;
  const buffers = core?._bufferService?.buffers as XtermInternals['buffers'] | undefined;
  if (!inputHandler || typeof inputHandler.onRequestRefreshRows !== 'function' || !buffers?.active || typeof buffers.active.ybase !== 'number') return null;
  return { inputHandler, buffers };
}

/** Top of the live bottom screen (`buffer.active.baseY`), without the public API's wrappers. */
export function readBaseY(term: XtermTerminal, internals: XtermInternals | null): number {
  return internals ? internals.buffers.active.ybase : term.buffer.active.baseY;
}

/** `'normal'` or `'alternate'`: the active buffer's type, without the public API's wrappers. */
export function readActiveType(term: XtermTerminal, internals: XtermInternals | null): string {
  return internals ? (internals.buffers.active === internals.buffers.alt ? 'alternate' : 'normal') : term.buffer.active.type;
}

/** True when the parser is in its ground state (or its state cannot be read). */
export function isParserAtGround(term: XtermTerminal): boolean {
  const parser = (term as unknown as { _core?: { _inputHandler?: { _parser?: { currentState?: unknown } } } })._core?._inputHandler?._parser;
  return typeof parser?.currentState !== 'number' || parser.currentState === 0;
}
