/**
 * Pre-launch trust (spec-format §10.6): before spawning, record "this folder is trusted" in the
 * agent CLI's own settings so its first-run trust dialog never appears. Best effort — the spec's
 * trust-modal states stay the fallback — and held to one guarantee above all: a user's settings
 * file is never lost or corrupted. Every file is parsed with a real parser (JSON: `trust-json.ts`,
 * TOML: `trust-toml.ts`) and written only when the new text provably means the old content plus
 * our entry. Every write is atomic (temp file + fsync + rename, mode kept), happens under a lock
 * file shared by concurrent specterm processes (`trust-files.ts`), and is re-checked against the
 * file's current bytes just before it lands (a foreign writer such as the CLI itself triggers a
 * re-read and merge). A read-only file, an explicit "not trusted" and anything we cannot edit
 * safely are left byte-identical and reported (`skipped` / `error`). Never throws.
 *
 * @module
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PreLaunchTrust } from '../core/spec/types.js';
import { expandHome } from './find-binary.js';
import { UneditableSettingsError, writeNewFile, type TrustResult } from './trust-files.js';
import { appendToArray, GEMINI_TRUSTED_FOLDERS, QWEN_TRUSTED_FOLDERS, setClaudeProjectTrust, setFolderTrust, trustedFoldersFile, updateJsonFile, type TrustedFoldersStore } from './trust-json.js';
import { CODEX_TRUST, grokTrust, updateTomlFile } from './trust-toml.js';

export type { TrustResult } from './trust-files.js';
export { inspectJson } from './trust-json.js';
export { tomlBasicString } from './trust-toml.js';

/** Options of {@link applyPreLaunchTrust}. */
export interface PreLaunchTrustOptions {
  /** Home directory for `~` and the named schemes. Default `os.homedir()`. */
  homeDir?: string;
  /** Environment to read `CODEX_HOME` / `CLAUDE_CONFIG_DIR` / `GEMINI_CLI_HOME` / `GEMINI_CLI_TRUSTED_FOLDERS_PATH` / `QWEN_HOME` / `QWEN_CODE_TRUSTED_FOLDERS_PATH` from (pass the child's env). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Clock for `decided_at` (grok). Default `() => new Date()`. */
  now?: () => Date;
  /**
   * @internal Test hook: runs after the temp file is written and before the final re-check and
   * rename, to simulate a foreign writer racing us.
   */
  beforeCommit?: (file: string) => void;
}

/**
 * Applies `cfg` for `workingDir`. Never throws; never loses or corrupts a settings file.
 *
 * @example
 * const r = applyPreLaunchTrust({ scheme: 'claude_json_projects' }, '/repo', { env: plan.env });
 * if (r.status === 'error') log.warn(`pre-launch trust: ${r.message}`);
 */
export function applyPreLaunchTrust(cfg: PreLaunchTrust, workingDir: string, opts: PreLaunchTrustOptions = {}): TrustResult {
  try {
    return applyOrThrow(cfg, workingDir, opts);
  } catch (err) {
    if (err instanceof UneditableSettingsError) return { status: 'error', file: err.file, message: err.message };
    return { status: 'error', message: `pre-launch trust failed: ${(err as Error)?.message ?? String(err)}; settings left as they were` };
  }
}

function applyOrThrow(cfg: PreLaunchTrust, workingDir: string, opts: PreLaunchTrustOptions): TrustResult {
  if (!cfg || typeof cfg !== 'object') {
    return { status: 'skipped', message: 'no pre_launch_trust configured' };
  }
  const home = opts.homeDir ?? os.homedir();
  const env = opts.env ?? process.env;
  const ws = workspacePath(workingDir);
  const trustFolder = (store: TrustedFoldersStore): TrustResult =>
    updateJsonFile(trustedFoldersFile(store, env, home, ws), ws, opts, (root, file) => setFolderTrust(root, file, ws));
  if ('scheme' in cfg) {
    switch (cfg.scheme) {
      case 'claude_json_projects': {
        const dir = env.CLAUDE_CONFIG_DIR ? expandHome(env.CLAUDE_CONFIG_DIR, home) : home;
        return updateJsonFile(path.join(dir, '.claude.json'), ws, opts, (root, file) => setClaudeProjectTrust(root, file, ws));
      }
      case 'codex_toml_file': {
        const dir = env.CODEX_HOME ? expandHome(env.CODEX_HOME, home) : path.join(home, '.codex');
        return updateTomlFile(path.join(dir, 'config.toml'), ws, CODEX_TRUST, opts.beforeCommit);
      }
      case 'grok_toml_file': {
        const decidedAt = (opts.now ?? (() => new Date()))();
        return updateTomlFile(path.join(home, '.grok', 'config.toml'), ws, grokTrust(decidedAt), opts.beforeCommit);
      }
      case 'kimi_workspace_file':
        return createKimiWorkspaceFile(home, ws);
      case 'gemini_trusted_folders':
        return trustFolder(GEMINI_TRUSTED_FOLDERS);
      case 'qwen_trusted_folders':
        return trustFolder(QWEN_TRUSTED_FOLDERS);
      default:
        return { status: 'error', message: `pre_launch_trust.scheme ${JSON.stringify((cfg as { scheme: unknown }).scheme)} is not supported; use claude_json_projects, codex_toml_file, gemini_trusted_folders, grok_toml_file, kimi_workspace_file or qwen_trusted_folders` };
    }
  }
  const { settings_path: settingsPath, key } = cfg;
  if (typeof settingsPath !== 'string' || !settingsPath.trim() || typeof key !== 'string' || !key) {
    return { status: 'error', message: `pre_launch_trust needs string settings_path and key, got ${JSON.stringify(cfg)}; fix the spec` };
  }
  const file = expandHome(settingsPath.trim(), home);
  if (!path.isAbsolute(file)) {
    return { status: 'error', message: `pre_launch_trust.settings_path ${JSON.stringify(settingsPath)} must be absolute or start with ~/; fix the spec` };
  }
  return updateJsonFile(file, ws, opts, (root, f) => appendToArray(root, f, key, ws));
}

/** The workspace as the CLI sees it: the realpath of `workingDir` (fallback: `path.resolve`). */
function workspacePath(workingDir: string): string {
  try {
    return fs.realpathSync(workingDir);
  } catch {
    return path.resolve(workingDir);
  }
}

// ── kimi: one file per workspace ────────────────────────────────────────────

/**
 * Our guess at kimi's layout (the reference does not show it):
 * `~/.kimi/workspaces/<sha1(realpath)>.json` = `{"path": realpath, "trusted": true}`.
 * Created if absent, never overwritten.
 */
function createKimiWorkspaceFile(home: string, ws: string): TrustResult {
  const file = path.join(home, '.kimi', 'workspaces', crypto.createHash('sha1').update(ws).digest('hex') + '.json');
  if (fs.existsSync(file)) return { status: 'already', file, path: ws };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const created = writeNewFile(file, JSON.stringify({ path: ws, trusted: true }, null, 2) + '\n');
  return { status: created ? 'added' : 'already', file, path: ws };
}

