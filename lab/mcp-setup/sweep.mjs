/**
 * Ends what a lab run left behind under its private HOME: the agent CLI's own helpers (Codex's
 * app server, an MCP server it spawned) outlive the CLI when it is killed. Only processes whose
 * environment names this run's temp HOME are touched: they were started by this run.
 * @module
 */
import fs from 'node:fs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function processesWithHome(home) {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(`HOME=${home}`)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** SIGTERM, then after a second SIGKILL, every process whose HOME is `home`. */
export async function endProcessesOf(home) {
  const pids = processesWithHome(home);
  for (const pid of pids) { try { process.kill(pid, 'SIGTERM'); } catch {} }
  if (!pids.length) return;
  await sleep(1000);
  for (const pid of processesWithHome(home)) { try { process.kill(pid, 'SIGKILL'); } catch {} }
}
