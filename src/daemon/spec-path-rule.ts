/**
 * Which files a spec path sent over the API may name (issue 24, item 3). A spec path is read by
 * the daemon, with the daemon's rights, for whoever holds a token: without a rule a phone with an
 * input token could make it open the admin token or /proc/self/environ. The rule:
 *
 * - a spec file's name ends in `.json`, before and after following symbolic links;
 * - never under /proc, /sys or /dev (the kernel's files and devices), the state dir or the
 *   runtime dir (the daemon's secrets), whoever asks;
 * - a device token (read, approve, input) may name only files under the package's `specs/` or the
 *   user's specs dir ({@link resolveUserSpecsDir}) — the places the owner put specs on purpose;
 * - the admin token (the local CLI reads it from the state dir, so whoever holds it can read
 *   these files anyway) may name any other `.json` file, e.g. a spec in a project.
 *
 * Places are checked on the path as given and on its real path, before the file is opened, so a
 * refusal tells nothing about the file (not even whether it exists). Regular files only and the
 * size cap are the loader's checks (src/catalog/load-spec.ts), made before it reads a byte.
 *
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DaemonError } from './errors.js';

/** The kernel's file systems: files that are not specs and may hold secrets (environ, memory). */
const SYSTEM_DIRS = ['/proc', '/sys', '/dev'];

export interface SpecPathPlaces {
  /** The package's built-in specs (`specs/`). */
  builtinDir: string;
  /** The user's specs dir. */
  userSpecsDir: string;
  /** The daemon's private dirs (state, runtime): never a spec. */
  privateDirs: string[];
}

/**
 * The user's own specs: `$SPECTERM_SPECS_DIR`, else `$XDG_CONFIG_HOME/specterm/specs`, else
 * `~/.config/specterm/specs` (the daemon's environment decides; the dir may not exist).
 */
export function resolveUserSpecsDir(env: Record<string, string | undefined> = process.env): string {
  if (env.SPECTERM_SPECS_DIR) return path.resolve(env.SPECTERM_SPECS_DIR);
  const config = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(env.HOME ?? os.homedir(), '.config');
  return path.join(config, 'specterm', 'specs');
}

/** Whether `ref` names a file rather than a built-in id (the catalog's test, src/catalog/builtin.ts). */
function isPathRef(ref: string): boolean {
  return ref.includes('/') || ref.includes(path.sep) || ref.endsWith('.json');
}

function isUnder(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `dir` and, when it exists and differs, its real path (a dir may itself be a symlink, e.g. /tmp on macOS). */
function withRealPath(dir: string): string[] {
  try {
    const real = fs.realpathSync(dir);
    return real === dir ? [dir] : [dir, real];
  } catch {
    return [dir];
  }
}

/** What is wrong with `file`'s place, or null when the caller may name it. */
function placeFault(file: string, places: SpecPathPlaces, isAdmin: boolean): string | null {
  if (!file.endsWith('.json')) return 'a spec file\'s name ends in .json';
  if (SYSTEM_DIRS.some((dir) => isUnder(dir, file))) return 'it is under /proc, /sys or /dev, which hold no specs';
  if (places.privateDirs.flatMap(withRealPath).some((dir) => isUnder(dir, file))) return 'it is in the daemon\'s state or runtime dir, which hold its secrets';
  if (isAdmin) return null;
  const roots = [places.builtinDir, places.userSpecsDir].flatMap(withRealPath);
  return roots.some((dir) => isUnder(dir, file)) ? null : 'a device token may name only spec files under the built-in specs or the user\'s specs dir';
}

function refusal(ref: string, reason: string, places: SpecPathPlaces, isAdmin: boolean): DaemonError {
  const allowed = isAdmin
    ? 'pass a built-in spec id (`specterm list`) or a .json spec file outside /proc, /sys, /dev and the daemon\'s state and runtime dirs'
    : `pass a built-in spec id (\`specterm list\`) or a .json spec file under ${places.builtinDir} or ${places.userSpecsDir} (the user's specs dir: put your spec there)`;
  return new DaemonError('SPEC_PATH_NOT_ALLOWED', `spec ${JSON.stringify(ref)} is not allowed: ${reason}; ${allowed}`, { path: '/spec' });
}

/**
 * The spec reference to load for a create request: a built-in id as it is, a path (relative
 * ones from the session's `cwd`) as its real path once its place is allowed. Throws
 * `SPEC_PATH_NOT_ALLOWED` (422) saying what is allowed, or `SPEC_NOT_FOUND` for a missing file in
 * an allowed place.
 */
export function checkSpecPath(ref: string, cwd: string, places: SpecPathPlaces, isAdmin: boolean): string {
  if (!isPathRef(ref)) return ref;
  const given = path.resolve(cwd, ref);
  const givenFault = placeFault(given, places, isAdmin);
  if (givenFault) throw refusal(ref, givenFault, places, isAdmin);
  let real: string;
  try {
    real = fs.realpathSync(given);
  } catch (error) {
    throw new DaemonError('SPEC_NOT_FOUND', `spec file ${given} cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'}); check the path`, { path: '/spec' });
  }
  // Not the target's name: the link may point where the caller must not look.
  if (real !== given && placeFault(real, places, isAdmin)) throw refusal(ref, 'it is a symbolic link to a place that is not allowed', places, isAdmin);
  return real;
}
