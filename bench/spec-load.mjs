#!/usr/bin/env node
/**
 * What a person waits for when a spec loads (issue 27 item 1): `specterm list`, `specterm
 * validate <built-in>` (each a whole CLI process, median of 5) and, on a running daemon, creating
 * a demo-agent session to its first frame (POST /sessions → the screen shows the agent's first
 * output; median and max of 5). Targets: list and validate ≤ 0.5 s, first frame ≤ 1 s.
 * Run on a quiet machine; the load average is printed beside the figures.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../bin/specterm.js');
const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timeCli(args) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
    samples.push(performance.now() - started);
    if (r.status !== 0) throw new Error(`specterm ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  return median(samples);
}

console.log(`spec_load_loadavg_1m=${os.loadavg()[0].toFixed(2)}`);
// The floor under both: Node's start plus the CLI's own modules, no command loaded.
console.log(`spec_load_version_ms=${timeCli(['--version']).toFixed(0)}`);
console.log(`spec_load_list_ms=${timeCli(['list']).toFixed(0)}`);
console.log(`spec_load_validate_claude_code_ms=${timeCli(['validate', 'claude-code']).toFixed(0)}`);
console.log(`spec_load_validate_all_builtin_ms=${timeCli(['validate', 'claude-code', 'codex', 'gemini', 'qwen-code', 'pi', 'opencode', 'kilocode', 'demo-agent']).toFixed(0)}`);

const { startDemoDaemon } = await import(resolve(here, '../scripts/start-daemon.mjs'));
const daemon = await startDemoDaemon();
try {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const { id } = await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: daemon.work, name: `bench-${i}` } });
    for (;;) {
      const screen = await daemon.client.call('getScreen', { params: { id } }).catch(() => null);
      if (screen && screen.content.trim() !== '') break;
      await new Promise((r) => setTimeout(r, 5));
    }
    samples.push(performance.now() - started);
    await daemon.client.call('removeSession', { params: { id } });
  }
  console.log(`spec_load_session_first_frame_median_ms=${median(samples).toFixed(0)}`);
  console.log(`spec_load_session_first_frame_max_ms=${Math.max(...samples).toFixed(0)}`);
} finally {
  await daemon.stop();
}
console.log(`spec_load_loadavg_1m_after=${os.loadavg()[0].toFixed(2)}`);
