/**
 * Where a session's spec lives and how it is edited: the file it runs (its own spec file, or a
 * session-local override of a built-in spec under the state dir: the package is never written),
 * loading it again for hot reload, and saving edited text atomically (temp + rename, mode kept).
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { builtinSpecsDir, loadSpec, materializeSpecPaths } from '../catalog/index.js';
import type { SpecSource } from '../driver/fsm-driver.js';
import { withStorageFull } from '../fs/storage-full.js';
import type { ManagedSession } from './managed-session.js';

export interface SpecFile {
  /** The file the session runs now. */
  path: string;
  /** The session was created from a spec of the package. */
  builtin: boolean;
  /** It runs a session-local override of that built-in spec. */
  override: boolean;
}

/** The spec files of the daemon's sessions. */
export class SessionSpecFiles {
  readonly #overridesDir: string;

  constructor(stateDir: string) {
    this.#overridesDir = path.join(stateDir, 'spec-overrides');
  }

  /** The session's original spec file (what it was created with). */
  #original(session: ManagedSession): string {
    return session.record.specPath ?? '';
  }

  #overrideOf(session: ManagedSession): string {
    return path.join(this.#overridesDir, `${session.id}.json`);
  }

  fileOf(session: ManagedSession): SpecFile {
    const original = this.#original(session);
    const builtin = isInside(builtinSpecsDir(), original);
    const override = builtin && fs.existsSync(this.#overrideOf(session));
    return { path: override ? this.#overrideOf(session) : original, builtin, override };
  }

  /**
   * The driver's reload source: the file the session runs now, with `{{specDir}}` still meaning
   * the original spec's folder (an override keeps launching the program shipped beside it).
   */
  source(session: ManagedSession): SpecSource {
    const fileOf = () => this.fileOf(session).path;
    return {
      get path() { return fileOf(); },
      load: () => {
        // A hot reload must not block the daemon: the editor's save screened the text first.
        const r = loadSpec(fileOf(), { redos: 'cached' });
        return r.ok ? { ...r, spec: materializeSpecPaths(r.spec, this.#original(session)) } : r;
      },
    };
  }

  /**
   * Writes `text` as the session's spec: over its own file, or (a built-in spec) to its
   * override. Atomic: a temp file beside it, then rename; an existing file's mode is kept,
   * a new override is private (0600 in a 0700 dir).
   */
  save(session: ManagedSession, text: string): SpecFile {
    const current = this.fileOf(session);
    const target = current.builtin ? this.#overrideOf(session) : current.path;
    if (current.builtin) withStorageFull(this.#overridesDir, () => fs.mkdirSync(this.#overridesDir, { recursive: true, mode: 0o700 }));
    let mode = 0o600;
    try { mode = fs.statSync(target).mode & 0o777; } catch { /* a new override */ }
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    withStorageFull(path.dirname(target), () => {
      try {
        fs.writeFileSync(temp, text, { mode, flag: 'wx' });
        fs.chmodSync(temp, mode); // the umask may have narrowed it
        fs.renameSync(temp, target);
      } catch (error) {
        fs.rmSync(temp, { force: true });
        throw error;
      }
    });
    return this.fileOf(session);
  }

  /** Forgets a removed session's override. */
  forget(sessionId: string): void {
    try {
      fs.rmSync(path.join(this.#overridesDir, `${sessionId}.json`), { force: true });
    } catch {
      // Unreadable dir: the stale copy is harmless (ids are never reused) and removal must not fail.
    }
  }
}

function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
