/**
 * What the process-level benchmarks share: their flags (`--name value`), `--help` printing the
 * file's opening comment (one text to keep right), and waiting on a condition with a deadline.
 * @module
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Prints the usage (the opening comment of `moduleUrl`) and exits when asked; returns `opt(name, fallback)`. */
export function benchArgs(moduleUrl, args = process.argv.slice(2)) {
  if (args.includes('--help') || args.includes('-h')) {
    const source = fs.readFileSync(fileURLToPath(moduleUrl), 'utf8');
    console.log(/\/\*\*\n([\s\S]*?)\*\//.exec(source)[1].replace(/^ \* ?/gm, ''));
    process.exit(0);
  }
  return (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves to `get()`'s first truthy value; throws naming `what` after `timeoutMs`. */
export async function waitFor(get, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await sleep(100);
  }
}

export function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** A process's CPU time so far, in clock ticks (utime + stime; 0 once it is gone). */
export function cpuTicks(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Linux USER_HZ: clock ticks a second. */
export const TICKS_PER_S = 100;
