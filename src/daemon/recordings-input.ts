/**
 * A session's write path, observed: the driver types every message, key, button press and
 * passthrough keystroke into the PTY through one transport `write`, so wrapping that transport
 * lets a recording keep what was typed (its asciicast `i` events) without the driver knowing.
 *
 * @module
 */
import type { Disposable, PtyTransport } from '../terminal/index.js';

export class InputTap {
  readonly #listeners = new Set<(data: string) => void>();

  /** `inner` as the driver sees it, with each write that the child's terminal took told to the listeners. */
  wrap(inner: PtyTransport): PtyTransport {
    return {
      get pid() { return inner.pid; },
      spawn: (req) => inner.spawn(req),
      write: (data) => {
        inner.write(data);
        // After the write: a refused write (a full queue throws) was never typed.
        for (const listener of this.#listeners) listener(data);
      },
      resize: (cols, rows) => inner.resize(cols, rows),
      kill: () => inner.kill(),
      onData: (listener) => inner.onData(listener),
      onExit: (listener) => inner.onExit(listener),
    };
  }

  /** Calls `listener` with every chunk typed from now on, until disposed. */
  onInput(listener: (data: string) => void): Disposable {
    const own = (data: string) => listener(data);
    this.#listeners.add(own);
    return { dispose: () => { this.#listeners.delete(own); } };
  }
}
