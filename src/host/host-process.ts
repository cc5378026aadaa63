/**
 * Whether a process still lives, as a client of the host can tell from its pid: the daemon
 * watches its PTY host this way, so a host that died is told from a host that is slow to answer
 * at once rather than after the reconnect give-up.
 *
 * @module
 */
import fs from 'node:fs';

/**
 * True when `pid` names no running process: none at all (ESRCH), or a zombie not yet reaped
 * (Linux: state `Z` in /proc; a zombie still answers signal 0). A pid taken meanwhile by another
 * program counts as alive: the caller's slower give-up still applies then.
 */
export function isProcessGone(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may itself hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}
