/**
 * Kilo's sandbox escalation (7.7.7): with `sandbox.enabled` in the config and a usable Bubblewrap
 * (`/usr/bin/bwrap`, Debian's `bubblewrap`; or KILO_BWRAP_PATH), every shell command of a session runs
 * inside the sandbox, where `.git` is read-only. A command that must write to git (`git branch …`:
 * the shell tool parses it) asks the `sandbox_escalation` permission before it runs, which the TUI
 * draws as its own block: `! Run outside the sandbox`, the `$ <command>` row, three muted lines
 * (`This runs the whole command with filesystem and network restrictions removed …`, `Git must write to
 * .git …`, `Bash allow rules and auto-approve never approve this prompt automatically.`) and two
 * options, `Allow` / `Reject`.
 *
 * `permission.bash: "allow"` here, so the ordinary shell permission does not ask first: the
 * escalation asks all the same (Kilo refuses a non-interactive reply to it). Lifting every
 * restriction widens what the agent may do: the spec reads it as its own state,
 * `sandbox_escalation`, kind confirm, never answered by an auto-approve policy (issue 29).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { allowRejectSessions } from './allow-reject.mjs';

export const SANDBOX_ESCALATION = { title: 'Run outside the sandbox', buttons: ['Allow', 'Reject'], state: 'sandbox_escalation', kind: 'confirm' };
const BRANCH = 'lab-branch';

/** The workspace as a git repository with one commit, so `git branch` has something to branch from. */
function gitWorkspace(work) {
  const git = (...args) => execFileSync('git', ['-c', 'user.name=lab', '-c', 'user.email=lab@lab.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd: work, stdio: 'ignore' });
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'lab');
}

/** Whether the branch exists, read from the repository's files (no git process of ours in the sandbox's way). */
const branched = (c) => fs.existsSync(`${c.work}/.git/refs/heads/${BRANCH}`) || (fs.existsSync(`${c.work}/.git/packed-refs`) && fs.readFileSync(`${c.work}/.git/packed-refs`, 'utf8').includes(`refs/heads/${BRANCH}`));

export const sandboxEscalationSessions = allowRejectSessions({
  name: 'sandbox-escalation', modal: SANDBOX_ESCALATION, kind: 'sandbox', prompt: 'please create the lab branch', happened: branched,
  fields: { setup: gitWorkspace, config: { sandbox: { enabled: true } }, permission: { bash: 'allow' } },
  checks: { yes: `git branch ${BRANCH} ran outside the sandbox (the branch exists)`, no: `git branch ${BRANCH} did not run (no branch)` },
  descriptions: {
    yes: `with the sandbox on, a shell call of git branch ${BRANCH} → "Run outside the sandbox" (the sandbox_escalation permission; Allow / Reject) → 1 (Allow) → the branch is created → idle`,
    no: `with the sandbox on, a shell call of git branch ${BRANCH} → "Run outside the sandbox" → 2 (Reject) → Enter on "Reject permission" → idle, no branch`,
  },
});
