/**
 * The update-notice scenarios of the Codex lab: Codex's start-up menu `✨ Update available!
 * <current> -> <latest>` (1. Update now (runs `npm install -g @openai/codex`) / 2. Skip /
 * 3. Skip until next version), provoked offline and answered without ever updating.
 *
 * Why it can be provoked offline (strings of the 0.171.0 binary, tui/src/update_prompt.rs): the
 * TUI shows the menu before its composer when
 *   - `check_for_update_on_startup` is on (the default),
 *   - `$CODEX_HOME/version.json` (`latest_version`, `last_checked_at`, `dismissed_version`) names a
 *     `latest_version` newer than the running one that is not the `dismissed_version`,
 *   - an update action is known: the npm wrapper (bin/codex.js) always sets CODEX_MANAGED_BY_NPM=1
 *     (BUN/PNPM/VITE_PLUS when it detects those), and the menu offers that manager's command.
 * Codex refreshes the cache from https://registry.npmjs.org/@openai%2fcodex in the background only
 * when `last_checked_at` is older than its refresh interval, so a cache written just before the
 * start keeps it from fetching at all.
 *
 * Guards (nothing may update, nothing may leave the machine):
 *   - `npm`, `bun`, `pnpm`, `vp` and `brew` first on PATH are shims that only log their arguments
 *     and fail: had Codex run its update command, the log would show it and nothing would install;
 *   - HTTPS_PROXY/HTTP_PROXY/ALL_PROXY point to a closed loopback port (NO_PROXY keeps the lab's
 *     loopback model server direct), so even a refresh Codex did start could not reach a registry;
 *   - the checks after the session: the shim log is empty, and version.json says what the answer
 *     did (Skip leaves it as written; `Skip until next version` sets `dismissed_version`).
 *
 * Scenario field `update_notice`: `{ "latest_version": "0.999.0", "dismissed": true|false }`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package managers whose update command the menu may offer (tui update_action). */
const MANAGERS = ['npm', 'bun', 'pnpm', 'vp', 'brew'];

/** Checks a scenario's `update_notice` field; throws naming the field and the fix. */
export function checkUpdateNotice(u, where) {
  const at = `${where}.update_notice`;
  if (!u || typeof u !== 'object') throw new Error(`${at}: expected { "latest_version": "X.Y.Z", "dismissed": boolean }, got ${JSON.stringify(u)}`);
  if (typeof u.latest_version !== 'string' || !/^\d+\.\d+\.\d+$/.test(u.latest_version)) throw new Error(`${at}.latest_version: expected a version X.Y.Z newer than the CLI's, got ${JSON.stringify(u.latest_version)}`);
  if (typeof u.dismissed !== 'boolean') throw new Error(`${at}.dismissed: expected true (the answer is "Skip until next version") or false (Skip), got ${JSON.stringify(u.dismissed)}`);
}

/**
 * Writes the cached update check into `codexHome` and the shims into `root/update-shims`.
 * Returns the environment the session needs (PATH with the shims first, the dead proxy) and what
 * `verifyUpdateNotice` needs afterwards.
 */
export function prepareUpdateNotice(root, codexHome, notice) {
  const versionFile = join(codexHome, 'version.json');
  const written = { latest_version: notice.latest_version, last_checked_at: new Date().toISOString(), dismissed_version: null };
  writeFileSync(versionFile, `${JSON.stringify(written)}\n`, { mode: 0o600 });
  const shims = join(root, 'update-shims');
  const shimLog = join(root, 'update-shims.log');
  mkdirSync(shims, { mode: 0o700 });
  for (const m of MANAGERS) {
    const p = join(shims, m);
    // Logs the call (tool and arguments, one line) and fails: an update attempt is seen, never run.
    writeFileSync(p, `#!/bin/sh\nprintf '%s %s\\n' ${JSON.stringify(m)} "$*" >> ${JSON.stringify(shimLog)}\nexit 1\n`, { mode: 0o700 });
    chmodSync(p, 0o700);
  }
  const dead = 'http://127.0.0.1:9'; // the discard port, nothing listens: a connection is refused at once
  const env = {
    PATH: `${shims}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HTTPS_PROXY: dead, https_proxy: dead, HTTP_PROXY: dead, http_proxy: dead, ALL_PROXY: dead, all_proxy: dead,
    NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost',
  };
  return { env, versionFile, shimLog, written };
}

/**
 * The checks after the session: the start-up menu read exactly (`scenario.expect_modal`: title,
 * kind picker, buttons), no update command ran, version.json holds what the answer did.
 * Returns whether the menu's title and buttons were right (the accuracy report's "buttons right").
 */
export function verifyUpdateNotice(prep, scenario, changes, check) {
  const notice = scenario.update_notice;
  const want = scenario.expect_modal;
  const menu = changes.find((c) => c.state === 'picker' && c.modal);
  const right = Boolean(menu && menu.modal.kind === 'picker' && menu.modal.title === want.title && JSON.stringify(menu.modal.buttons.map((b) => b.label)) === JSON.stringify(want.buttons));
  check(right, `the update menu is kind picker with its title and buttons: ${JSON.stringify(menu?.modal ?? null)}`);
  const calls = existsSync(prep.shimLog) ? readFileSync(prep.shimLog, 'utf8').trim() : '';
  check(calls === '', `no package manager ran (no update): ${calls ? JSON.stringify(calls) : 'the shim log is empty'}`);
  let after = null;
  try { after = JSON.parse(readFileSync(prep.versionFile, 'utf8')); } catch (err) { check(false, `version.json readable after the session: ${err.message}`); return right; }
  check(after.latest_version === notice.latest_version, `version.json keeps latest_version ${notice.latest_version} (no refresh from a registry): ${JSON.stringify(after)}`);
  check(after.last_checked_at === prep.written.last_checked_at, `version.json keeps last_checked_at (Codex did not check again): ${JSON.stringify(after)}`);
  const wantDismissed = notice.dismissed ? notice.latest_version : null;
  check((after.dismissed_version ?? null) === wantDismissed, `version.json dismissed_version ${JSON.stringify(wantDismissed)} after the answer: ${JSON.stringify(after)}`);
  return right;
}
