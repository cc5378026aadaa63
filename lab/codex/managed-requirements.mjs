/**
 * Managed requirements for one lab session, seen by that session alone.
 *
 * Codex reads admin-enforced requirements on Linux from `/etc/codex/requirements.toml` only (no
 * CODEX_HOME or environment override in 0.171.0), and some prompts exist only under them: the
 * network approval (`Do you want to approve network access to "…"?`) is asked only when the
 * requirements carry a network section — without one the proxy has no decider and an unlisted
 * host is refused outright. Writing the real /etc would change every other Codex on the machine,
 * so the lab starts Codex in a private mount namespace (`unshare -m`) whose /etc is an overlay
 * of the real one with the scenario's requirements.toml on top. Nothing outside that process
 * tree sees the file; the overlay's upper dir lives in the scenario's temp dir and goes with it.
 *
 * Needs root or CAP_SYS_ADMIN for `unshare -m` and the overlay mount; a lab that cannot mount
 * fails the scenario with the mount's own error (Codex never starts), it does not skip it.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Checks a scenario's `requirements` field; throws naming the field, the value and the fix. */
export function checkRequirements(lines, where) {
  if (!Array.isArray(lines) || !lines.length || !lines.every((l) => typeof l === 'string')) {
    throw new Error(`${where}.requirements: expected a non-empty list of requirements.toml lines (e.g. ["[experimental_network]", "enabled = true"]), got ${JSON.stringify(lines)}`);
  }
}

/** Single-quotes a string for sh. */
const q = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;

/**
 * Writes `<root>/etc-upper/codex/requirements.toml` and a launcher that runs `binPath` with it.
 * @param {string} root the scenario's private temp dir
 * @param {string} binPath the real Codex CLI
 * @param {string[]} lines the requirements.toml lines
 * @returns {string} the launcher's path: use it as the spec's binary
 */
export function managedLauncher(root, binPath, lines) {
  checkRequirements(lines, 'scenario');
  const upper = join(root, 'etc-upper');
  const work = join(root, 'etc-work');
  mkdirSync(join(upper, 'codex'), { recursive: true, mode: 0o755 });
  mkdirSync(work, { mode: 0o700 });
  writeFileSync(join(upper, 'codex', 'requirements.toml'), `${lines.join('\n')}\n`, { mode: 0o644 });
  const launcher = join(root, 'codex-managed');
  // $1/$2 are the overlay dirs, the rest is the real binary and Codex's own arguments.
  const inner = 'mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1,workdir=$2" /etc && shift 2 && exec "$@"';
  writeFileSync(launcher, `#!/bin/sh\nexec unshare -m -- sh -c ${q(inner)} sh ${q(upper)} ${q(work)} ${q(binPath)} "$@"\n`, { mode: 0o700 });
  chmodSync(launcher, 0o700);
  return launcher;
}
