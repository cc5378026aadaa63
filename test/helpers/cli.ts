/**
 * Running the real `specterm` command (`node bin/specterm.js …`, built into dist/) as a child
 * process, the way a user's shell does, and reading back its exit code and streams.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the CLI's default working directory in tests). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SPECTERM_BIN = path.join(REPO_ROOT, 'bin/specterm.js');
export const FAKE_AGENT = path.join(REPO_ROOT, 'test/fixtures/agents/fake-agent.mjs');

/** What a finished CLI run left. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  cwd?: string;
  /** Merged over the test process's environment (e.g. a private `HOME`). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Runs `specterm <args…>` to completion with stdin at end of file (not a terminal). */
export function runCli(args: string[], opts: RunCliOptions = {}): CliRun {
  const r = spawnSync(process.execPath, [SPECTERM_BIN, ...args], {
    cwd: opts.cwd ?? REPO_ROOT,
    env: { ...process.env, ...opts.env },
    input: '',
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
