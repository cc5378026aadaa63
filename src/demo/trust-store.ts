/**
 * The folder-trust store: a JSON settings file whose `trustedFolders` array lists folder
 * realpaths the user trusted. The same shape specterm's `pre_launch_trust` array form edits,
 * so a launcher can pre-trust a folder and the demo skips its trust prompt.
 * @module
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The settings key holding trusted folders. */
export const TRUSTED_FOLDERS_KEY = 'trustedFolders';

/** Outcome of reading the store. A missing file is an empty store, not an error. */
export type TrustReadResult = { ok: true; folders: string[] } | { ok: false; error: string };

/** Outcome of adding a folder. `added` is false when the folder was already listed. */
export type TrustWriteResult = { ok: true; added: boolean } | { ok: false; error: string };

/**
 * Picks the settings file: `--settings FILE` wins, then `$DEMO_AGENT_HOME/settings.json`,
 * then `~/.demo-agent/settings.json`.
 */
export function resolveSettingsPath(settingsFlag: string | undefined, env: NodeJS.ProcessEnv, home: string = homedir()): string {
  if (settingsFlag !== undefined && settingsFlag !== '') return settingsFlag;
  const agentHome = env.DEMO_AGENT_HOME;
  if (agentHome !== undefined && agentHome !== '') return join(agentHome, 'settings.json');
  return join(home, '.demo-agent', 'settings.json');
}

type RootResult = { ok: true; root: Record<string, unknown> } | { ok: false; error: string };

function readRoot(settingsPath: string): RootResult {
  let text: string;
  try {
    text = readFileSync(settingsPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, root: {} };
    return { ok: false, error: `${settingsPath}: cannot read (${(error as Error).message}); check its permissions` };
  }
  if (text.trim() === '') return { ok: true, root: {} };
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${settingsPath}: not valid JSON (${(error as Error).message}); fix or delete the file` };
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    return { ok: false, error: `${settingsPath}: the top level must be a JSON object, got ${Array.isArray(root) ? 'an array' : typeof root}; fix or delete the file` };
  }
  return { ok: true, root: root as Record<string, unknown> };
}

function listFolders(root: Record<string, unknown>, settingsPath: string): TrustReadResult {
  const value = root[TRUSTED_FOLDERS_KEY];
  if (value === undefined) return { ok: true, folders: [] };
  if (!Array.isArray(value)) {
    return { ok: false, error: `${settingsPath}: ${TRUSTED_FOLDERS_KEY} must be an array of folder paths, got ${typeof value}; fix or remove the key` };
  }
  // Non-string entries are kept in the file (they are not ours to delete) but never match.
  return { ok: true, folders: value.filter((v): v is string => typeof v === 'string') };
}

/** Reads the trusted folders. */
export function readTrustedFolders(settingsPath: string): TrustReadResult {
  const read = readRoot(settingsPath);
  return read.ok ? listFolders(read.root, settingsPath) : read;
}

/** True when `folderRealpath` is listed. An unreadable store trusts nothing (the prompt then shows). */
export function isFolderTrusted(settingsPath: string, folderRealpath: string): boolean {
  const read = readTrustedFolders(settingsPath);
  return read.ok && read.folders.includes(folderRealpath);
}

/**
 * Appends `folderRealpath` to `trustedFolders`, keeping every other key and entry.
 * A file that cannot be parsed is left untouched and reported. The write goes through a
 * temporary file and a rename so a crash never leaves a half-written settings file.
 */
export function addTrustedFolder(settingsPath: string, folderRealpath: string): TrustWriteResult {
  const read = readRoot(settingsPath);
  if (!read.ok) return read;
  const listed = listFolders(read.root, settingsPath);
  if (!listed.ok) return listed;
  if (listed.folders.includes(folderRealpath)) return { ok: true, added: false };
  const existing = (read.root[TRUSTED_FOLDERS_KEY] as unknown[] | undefined) ?? [];
  const root = { ...read.root, [TRUSTED_FOLDERS_KEY]: [...existing, folderRealpath] };
  const tempPath = `${settingsPath}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(settingsPath), { recursive: true });
    writeFileSync(tempPath, `${JSON.stringify(root, null, 2)}\n`);
    renameSync(tempPath, settingsPath);
  } catch (error) {
    return { ok: false, error: `${settingsPath}: cannot write (${(error as Error).message}); check the folder's permissions` };
  }
  return { ok: true, added: true };
}
