/**
 * Hot reload's trigger: watches the spec file's folder (editors replace files by rename, which a
 * watch on the file itself would lose) and calls back once the writes have settled. The reload
 * itself goes through the driver's `specSource`; this module never reads the file.
 *
 * @module
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../terminal/transport.js';
import type { TimerStore } from './timer-store.js';

/** Editors write in several steps; reload this long after the last change event. */
export const HOT_RELOAD_DEBOUNCE_MS = 50;

/**
 * Calls `onSettled` HOT_RELOAD_DEBOUNCE_MS after the last change to `specPath`. Returns the watch
 * to dispose, or the reason it could not be set up (hot reload is then off; the session runs on).
 */
export function watchSpecFile(specPath: string, timers: TimerStore, onSettled: () => void): Disposable | { error: string } {
  const dir = path.dirname(specPath);
  const base = path.basename(specPath);
  const debounce = timers.slot(onSettled);
  let watcher: fs.FSWatcher;
  try {
    watcher = fs.watch(dir, (_event, filename) => {
      if (filename && filename.toString() !== base) return;
      debounce.arm(HOT_RELOAD_DEBOUNCE_MS);
    });
  } catch (err) {
    debounce.dispose();
    return { error: `hot reload disabled: cannot watch ${dir}: ${err instanceof Error ? err.message : String(err)}` };
  }
  watcher.on('error', () => { /* the directory went away; keep the running spec */ });
  return {
    dispose: () => {
      watcher.close();
      debounce.dispose();
    },
  };
}
