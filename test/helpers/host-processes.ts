/**
 * Finding and ending PTY host processes (`bin/specterm-host.js`) by what they were started for:
 * the runtime dir in their environment (`SPECTERM_RUNTIME_DIR`) and the test run that started
 * them (`SPECTERM_TEST_RUN`, set by test/global-setup.ts and inherited by every daemon and host a
 * test starts). A host is detached and outlives the daemon by design, so a test that loses track
 * of it (a socket that does not answer under load, a killed parent) would leave it running:
 * matching by environment finds it anyway, and never touches another run's or a user's host.
 */
import fs from 'node:fs';

/** The environment variable naming the vitest run that started a process. */
export const TEST_RUN_ENV = 'SPECTERM_TEST_RUN';

export interface HostProcess { pid: number; runtimeDir: string; testRun: string | undefined }

/** A live process's environment, from /proc (throws when it is gone or not ours to read). */
export function environmentOf(pid: number): Map<string, string> {
  return new Map(fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').filter(Boolean).map((kv) => {
    const i = kv.indexOf('=');
    return [kv.slice(0, i), kv.slice(i + 1)] as const;
  }));
}

/** Live specterm-host processes (readable by us), with the runtime dir and test run they were started with. */
export function listHostProcesses(): HostProcess[] {
  const found: HostProcess[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes('specterm-host')) continue;
      const env = environmentOf(Number(entry));
      const runtimeDir = env.get('SPECTERM_RUNTIME_DIR');
      if (runtimeDir) found.push({ pid: Number(entry), runtimeDir, testRun: env.get(TEST_RUN_ENV) });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Direct children of `pid` (a host's agents). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of stat is the parent pid; the name (field 2) is in parentheses and may hold spaces.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {}
  }
  return children;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to each host and its children, SIGKILL to what is left after `graceMs`. Resolves when all are gone (bounded). */
export async function killHosts(hosts: readonly HostProcess[], graceMs = 3000): Promise<number[]> {
  const pids = hosts.flatMap((h) => [h.pid, ...childrenOf(h.pid)]);
  for (const pid of pids) { try { process.kill(pid, 'SIGTERM'); } catch {} }
  const deadline = Date.now() + graceMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const pid of pids.filter(alive)) { try { process.kill(pid, 'SIGKILL'); } catch {} }
  const killDeadline = Date.now() + 5000;
  while (pids.some(alive) && Date.now() < killDeadline) await new Promise((r) => setTimeout(r, 50));
  return hosts.map((h) => h.pid);
}

/** Whether `dir` is `root` or inside it. */
export function isUnder(dir: string, root: string): boolean {
  return dir === root || dir.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** Ends every host whose runtime dir is one of `dirs` or inside one (and the host's agents). */
export async function killHostsUnder(dirs: Iterable<string>): Promise<number[]> {
  const roots = [...dirs];
  if (roots.length === 0) return [];
  return killHosts(listHostProcesses().filter((h) => roots.some((root) => isUnder(h.runtimeDir, root))));
}
