/**
 * A real `notify-send` stand-in for tests: an executable shell script in its own bin dir (put
 * that dir alone on the test's PATH) that appends its argv, one argument per line, and an
 * end-of-call line, to a log file. `mode: 'hang'` records and then sleeps, as a notify-send
 * with no notification server on the bus does. Also the two small helpers these tests share.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const END = '--END-OF-CALL--';

export function recordingNotifySend(dir: string, mode: 'record' | 'hang' = 'record'): { bin: string; log: string } {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const log = path.join(dir, 'notify-send.log');
  const script = `#!/bin/sh\n{ for a in "$@"; do printf '%s\\n' "$a"; done; printf '%s\\n' '${END}'; } >> '${log}'\n${mode === 'hang' ? 'exec /bin/sleep 30\n' : ''}`;
  fs.writeFileSync(path.join(bin, 'notify-send'), script, { mode: 0o700 });
  return { bin, log };
}

/** Every recorded call's argv, in order. */
export function readNotifySendLog(log: string): string[][] {
  if (!fs.existsSync(log)) return [];
  const calls: string[][] = [];
  let current: string[] = [];
  for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
    if (line === END) {
      calls.push(current);
      current = [];
    } else if (line !== '' || current.length > 0) current.push(line);
  }
  return calls;
}

/** A private temp dir, removed by the returned cleanup (push it to the test's cleanups). */
export function makeTempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Resolves with `get()`'s first truthy value (polled every 25 ms); rejects naming `what` after `timeoutMs`. */
export async function until<T>(get: () => T | undefined | null | false, what: string | (() => string), timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
