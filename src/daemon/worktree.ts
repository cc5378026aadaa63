/**
 * Git worktrees for sessions: `worktree: {branch}` runs the agent in a fresh worktree on a new
 * branch beside the repository (`<repo>/../.specterm-worktrees/<repo>-<session>`); it is removed
 * with the session only when it has no uncommitted changes, unless forced.
 *
 * git runs without a shell, arguments as an array; the branch name is checked by the protocol
 * (no leading `-`, no `..`) and passed after `--`-safe positions.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DaemonError } from './errors.js';

function git(cwd: string, args: string[]): { ok: boolean; out: string; err: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', shell: false, timeout: 30_000 });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim(), err: (r.stderr ?? r.error?.message ?? '').trim() };
}

/** Creates a worktree of the repository at `repoDir` on the new branch `branch`. */
export function createWorktree(repoDir: string, branch: string, sessionId: string): { path: string; branch: string } {
  const top = git(repoDir, ['rev-parse', '--show-toplevel']);
  if (!top.ok) throw new DaemonError('WORKTREE_FAILED', `cwd ${JSON.stringify(repoDir)} is not inside a git repository (${top.err}); drop "worktree" or pass a repository's directory`, { path: '/cwd' });
  const root = top.out;
  const parent = path.join(path.dirname(root), '.specterm-worktrees');
  fs.mkdirSync(parent, { recursive: true, mode: 0o700 });
  const dir = path.join(parent, `${path.basename(root)}-${sessionId}`);
  const made = git(root, ['worktree', 'add', '-b', branch, dir]);
  if (!made.ok) throw new DaemonError('WORKTREE_FAILED', `git worktree add -b ${branch} failed: ${made.err}; pick a branch name that does not exist yet`, { path: '/worktree/branch' });
  return { path: dir, branch };
}

/**
 * Removes the worktree at `dir` (its branch stays). Refused with `WORKTREE_DIRTY` and the
 * changed files when it has uncommitted changes, unless `force`. `dryRun` only checks.
 */
export function removeWorktree(dir: string, options: { force: boolean; dryRun: boolean }): void {
  if (!fs.existsSync(dir)) return;
  if (!options.force) {
    const status = git(dir, ['status', '--porcelain']);
    if (!status.ok || status.out.length > 0) {
      const files = status.out.split('\n').slice(0, 10).join(', ');
      throw new DaemonError('WORKTREE_DIRTY', `the session's worktree ${dir} has uncommitted changes (${status.ok ? files : status.err}); commit or discard them, or remove with force=true (\`specterm rm --force\`)`);
    }
  }
  if (options.dryRun) return;
  const removed = git(dir, ['worktree', 'remove', ...(options.force ? ['--force'] : []), dir]);
  if (!removed.ok) throw new DaemonError('WORKTREE_FAILED', `git worktree remove ${dir} failed: ${removed.err}`);
}
