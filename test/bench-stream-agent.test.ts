/**
 * The benchmark's fake agent (`bench/fake-agent.mjs`) under a real driver in a real PTY: its
 * spec (`bench/fixtures/stream-agent.spec.json`) must tell idle from generating by the screen,
 * turn after turn, and every state-changing frame must carry its `k=` stamp — the benchmark's
 * lag figures rest on both.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/catalog/load-spec.js';
import type { CliSpecV4 } from '../src/core/spec/types.js';
import type { DashboardEvent } from '../src/driver/events.js';
import { FsmDriver } from '../src/driver/fsm-driver.js';
import { createPtyTransport } from '../src/terminal/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const AGENT = path.join(ROOT, 'bench', 'fake-agent.mjs');

function spec(args: string[]): CliSpecV4 {
  const r = loadSpec(path.join(ROOT, 'bench', 'fixtures', 'stream-agent.spec.json'));
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return { ...r.spec, binary: process.execPath, spawn_args: [AGENT, ...args] };
}

let driver: FsmDriver | undefined;
afterEach(() => driver?.shutdown());

describe('bench stream agent', () => {
  it('goes idle → busy → idle on every turn, and stamps the frames that change the state', async () => {
    driver = new FsmDriver({
      spec: spec(['--turn-ms', '900', '--idle-ms', '500', '--turns', '3']), workingDir: ROOT,
      transport: createPtyTransport(), cols: 120, rows: 40, applyTrust: false,
    });
    const states: string[] = [];
    const kinds: string[] = [];
    let bytes = 0;
    const exited = new Promise<DashboardEvent>((resolve) => {
      driver!.subscribe((ev) => {
        if (ev.kind === 'state_changed') states.push(ev.state.id);
        if (ev.kind === 'pty_data') {
          bytes += Buffer.byteLength(ev.chunk);
          for (const m of ev.chunk.matchAll(/\x1b\]777;t=\d+;k=(\w+)\x07/g)) kinds.push(m[1]!);
        }
        if (ev.kind === 'exit' || ev.kind === 'spawn_error') resolve(ev);
      });
    });
    driver.start();
    const end = await exited;
    expect(end).toMatchObject({ kind: 'exit', exit_code: 0 });
    expect(states).toEqual(['starting', 'idle', 'busy', 'idle', 'busy', 'idle', 'busy', 'idle']);
    expect(kinds).toEqual(['idle', 'busy', 'idle', 'busy', 'idle', 'busy', 'idle']);
    // 3 turns of ~0.9 s at ≥ 2 KB/s of text plus the block: well over 5 KB.
    expect(bytes).toBeGreaterThan(5_000);
  }, 30_000);
});
