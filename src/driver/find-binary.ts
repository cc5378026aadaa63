/**
 * Resolves a spec's `binary` to an executable file without running `which`/`where`
 * (spec-format §11 step 3): PATH first, then the npm global bin directory, then the
 * directory of the running Node executable — the two places an off-PATH `claude`/`codex`
 * install usually lives when the daemon was started from a GUI or a service manager.
 *
 * The win32 rules are pure logic behind the `platform` switch, so they are unit-tested on
 * any host with constructed directories.
 *
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Options of {@link findBinary}. Every field defaults to the running process's value. */
export interface FindBinaryOptions {
  /** Environment to read `PATH` (`Path` on win32) and `npm_config_prefix` from. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Platform whose rules apply. Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Home directory for a leading `~`. Default `os.homedir()`. */
  homeDir?: string;
  /** The Node executable whose prefix locates npm's global bin dir. Default `process.execPath`. */
  execPath?: string;
  /** Base for relative paths such as `./bin/agent`. Default `process.cwd()`. */
  cwd?: string;
  /** The command that installs the binary (the spec's `install`): the not-found fix names it. */
  install?: string;
}

/** The binary was found: an absolute path to an executable file. */
export interface BinaryFound {
  path: string;
}

/** Stable codes of {@link BinaryNotFound}. */
export type FindBinaryErrorCode =
  /** The name is empty or blank. */
  | 'BINARY_EMPTY'
  /** No candidate exists in any searched directory (or the explicit path does not exist). */
  | 'BINARY_NOT_FOUND'
  /** The explicit path exists but is a directory or lacks the execute permission. */
  | 'BINARY_NOT_EXECUTABLE';

/** The binary could not be resolved; `searched` lists every directory (or the path) looked at. */
export interface BinaryNotFound {
  code: FindBinaryErrorCode;
  /** The name as given. */
  binary: string;
  /** Every directory searched, in order (for an explicit path: that path). */
  searched: string[];
  /** Human message naming the binary, the places searched and the fix. */
  message: string;
}

/** Windows extensions in preference order: native executables first, then batch shims. */
const WIN32_EXTENSIONS = ['.exe', '.com', '.cmd', '.bat'] as const;

/** Type guard: true when {@link findBinary} failed. */
export function isBinaryNotFound(r: BinaryFound | BinaryNotFound): r is BinaryNotFound {
  return 'code' in r;
}

/**
 * Finds the executable for `name`.
 *
 * - `name` is trimmed; a leading `~` (`~` or `~/…`) becomes the home directory.
 * - A name containing a path separator is an explicit path: it is made absolute and must be an
 *   existing, executable file (on win32 a missing extension is completed from `.exe .com .cmd .bat`).
 * - Otherwise the name is searched in `PATH`, then npm's global bin dir (`$npm_config_prefix/bin`
 *   and `<dirname(execPath)>/../bin`; on win32 the prefix itself and `%APPDATA%\npm`), then
 *   `dirname(execPath)`. Directories are searched once each, in that order; relative PATH entries
 *   are skipped.
 * - win32: a bare name is tried with `.exe`, `.com`, `.cmd`, `.bat` in each directory, in that
 *   order, and never extensionless (npm drops a POSIX shell shim named `claude` beside
 *   `claude.cmd`; CreateProcess cannot run it).
 *
 * Never spawns a process and never throws.
 *
 * @example
 * const r = findBinary('claude');
 * if (isBinaryNotFound(r)) console.error(r.message); else console.log(r.path);
 */
export function findBinary(name: string, opts: FindBinaryOptions = {}): BinaryFound | BinaryNotFound {
  const platform = opts.platform ?? process.platform;
  const env = opts.env ?? process.env;
  const isWin = platform === 'win32';
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (!trimmed) {
    return {
      code: 'BINARY_EMPTY',
      binary: String(name),
      searched: [],
      message: `binary is empty (got ${JSON.stringify(name)}); set "binary" in the spec or pass --binary PATH`,
    };
  }
  const expanded = expandHome(trimmed, opts.homeDir ?? os.homedir(), isWin);
  const hasSeparator = expanded.includes('/') || (isWin && expanded.includes('\\'));
  if (hasSeparator || (isWin ? path.win32.isAbsolute(expanded) : path.posix.isAbsolute(expanded))) {
    return resolveExplicitPath(trimmed, path.resolve(opts.cwd ?? process.cwd(), expanded), isWin);
  }
  const dirs = searchDirectories(env, platform, opts.execPath ?? process.execPath);
  for (const dir of dirs) {
    const hit = probeDirectory(dir, expanded, isWin);
    if (hit) return { path: hit };
  }
  const tried = isWin && !hasWin32Extension(expanded) ? ` (as ${WIN32_EXTENSIONS.map((e) => expanded + e).join(', ')})` : '';
  return {
    code: 'BINARY_NOT_FOUND',
    binary: trimmed,
    searched: dirs,
    message:
      `binary "${trimmed}" was not found${tried}; searched ${dirs.length} director${dirs.length === 1 ? 'y' : 'ies'}: ` +
      `${dirs.join(', ') || '(none: PATH is empty)'}. Install it${opts.install ? ` with \`${opts.install}\`` : ''} or pass --binary PATH`,
  };
}

/**
 * The directories {@link findBinary} searches for a bare name, in order, without duplicates.
 *
 * @param env - environment holding `PATH`/`Path` and `npm_config_prefix`.
 * @param platform - whose delimiter and npm layout apply.
 * @param execPath - the Node executable.
 */
export function searchDirectories(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  execPath: string,
): string[] {
  const isWin = platform === 'win32';
  // Joins use the host's `path`: on a real Windows host that is `path.win32`; in unit tests that
  // simulate win32 on a POSIX host the constructed directories are POSIX paths.
  const dirs: string[] = [];
  const add = (dir: string | undefined): void => {
    if (!dir) return;
    // Unquote `"C:\Program Files\x"` entries, which Windows tolerates in PATH.
    const unquoted = isWin ? dir.replace(/^"(.*)"$/, '$1') : dir;
    if (!unquoted) return;
    const clean = path.normalize(unquoted);
    // Relative PATH entries (`.`, `bin`) would make the result depend on the daemon's cwd and let a
    // checked-out repository shadow the real CLI; they are skipped.
    if (!path.isAbsolute(clean) || dirs.includes(clean)) return;
    dirs.push(clean);
  };
  const pathValue = readEnv(env, 'PATH', isWin) ?? '';
  for (const dir of pathValue.split(isWin ? ';' : ':')) add(dir);
  const execDir = path.dirname(execPath);
  const npmPrefix = readEnv(env, 'npm_config_prefix', isWin);
  if (isWin) {
    // npm on Windows installs global shims directly in the prefix, not in `<prefix>\bin`.
    add(npmPrefix);
    add(execDir);
    const appData = readEnv(env, 'APPDATA', true);
    if (appData) add(path.join(appData, 'npm'));
  } else {
    if (npmPrefix) add(path.join(npmPrefix, 'bin'));
    add(path.join(execDir, '..', 'bin'));
    add(execDir);
  }
  return dirs;
}

/** Replaces a leading `~` (alone or followed by a separator) with `homeDir`; `~user` is left alone. */
export function expandHome(value: string, homeDir: string, isWin = false): string {
  if (value === '~') return homeDir;
  if (value.startsWith('~/') || (isWin && value.startsWith('~\\'))) return homeDir + value.slice(1);
  return value;
}

/** True when `file` exists, is a regular file (symlinks followed) and is executable by us. */
export function isExecutableFile(file: string, isWin = process.platform === 'win32'): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    // Windows has no execute bit; existence of a file with a runnable extension is the test.
    if (!isWin) fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function resolveExplicitPath(given: string, abs: string, isWin: boolean): BinaryFound | BinaryNotFound {
  const candidates = isWin && !hasWin32Extension(abs) ? WIN32_EXTENSIONS.map((e) => abs + e) : [abs];
  for (const c of candidates) {
    if (isExecutableFile(c, isWin)) return { path: c };
  }
  const exists = candidates.find((c) => fs.existsSync(c));
  if (exists) {
    return {
      code: 'BINARY_NOT_EXECUTABLE',
      binary: given,
      searched: [exists],
      message: `binary "${given}" resolves to ${exists}, which is not an executable file; run \`chmod +x ${exists}\` or pass --binary PATH to an executable`,
    };
  }
  return {
    code: 'BINARY_NOT_FOUND',
    binary: given,
    searched: candidates,
    message: `binary "${given}" was not found at ${candidates.join(' or ')}; install it or pass --binary PATH`,
  };
}

function probeDirectory(dir: string, name: string, isWin: boolean): string | null {
  if (!isWin) {
    const file = path.join(dir, name);
    return isExecutableFile(file, false) ? file : null;
  }
  const names = hasWin32Extension(name) ? [name] : WIN32_EXTENSIONS.map((e) => name + e);
  for (const n of names) {
    const file = path.join(dir, n);
    if (isExecutableFile(file, true)) return file;
  }
  return null;
}

function hasWin32Extension(name: string): boolean {
  const ext = path.win32.extname(name).toLowerCase();
  return (WIN32_EXTENSIONS as readonly string[]).includes(ext);
}

/** Reads an env var; on win32 names are case-insensitive (`Path` is common). */
function readEnv(env: Record<string, string | undefined>, name: string, caseInsensitive: boolean): string | undefined {
  const direct = env[name];
  if (typeof direct === 'string') return direct;
  if (!caseInsensitive) return undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(env)) {
    if (k.toLowerCase() === lower && typeof v === 'string') return v;
  }
  return undefined;
}
