/**
 * Runs a probe script (a scenario in its own Node process, printing one JSON line) with a hard
 * time limit. A probe whose event loop is blocked cannot time itself out, so the limit is
 * enforced from here with SIGKILL and reported as a hang.
 */
import { spawn } from 'node:child_process';

/** Runs `node script JSON.stringify(options)`; resolves with the parsed last stdout line. */
export function runProbe<T>(script: string, options: Record<string, unknown>, limitMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const startedAt = Date.now();
    const child = spawn(process.execPath, [script, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`probe ${JSON.stringify(options)} did not finish within ${limitMs} ms (its event loop is blocked or something keeps it alive); output so far: ${stdout}${stderr}`));
    }, limitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') return; // rejected by the timer above
      const last = stdout.trim().split('\n').pop() ?? '';
      try {
        const parsed = JSON.parse(last) as T & { elapsedMs?: number };
        parsed.elapsedMs = Date.now() - startedAt;
        resolve(parsed);
      } catch {
        reject(new Error(`probe ${JSON.stringify(options)} exited with ${code ?? signal} without a JSON result: ${stdout}${stderr}`));
      }
    });
  });
}
