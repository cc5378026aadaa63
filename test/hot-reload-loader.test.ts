/**
 * Hot reload goes through the catalog's one spec loader (ReDoS screen, 5 MB cap, line/column
 * errors), in a live session (what `run` and `record` use) and in a replay alike: a reloaded spec
 * is refused for exactly what `specterm validate` refuses, and the running spec stays in force.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import type { CliSpecV4 } from '../src/core/spec/types.js';
import type { DashboardEvent } from '../src/driver/events.js';
import { startLiveSession, type LiveSession } from '../src/harness/live-session.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';

const WAIT_MS = 30_000;
const TEST_MS = 120_000;
/** Exponential on a run of "a"s followed by a mismatch: what the ReDoS screen exists to refuse. */
const EXPONENTIAL_REGEX = '(a+)+$';

let root = '';
let session: LiveSession | null = null;

beforeEach(() => { root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-reload-loader-'))); });
afterEach(async () => {
  await session?.stop();
  session = null;
  fs.rmSync(root, { recursive: true, force: true });
});

/** The built-in demo spec (paths substituted), written to `<root>/spec.json`. */
function writeDemoSpec(): { spec: CliSpecV4; specPath: string } {
  const r = loadSpecRef('demo-agent');
  if (!r.ok) throw new Error(r.errors.join('\n'));
  const specPath = path.join(root, 'spec.json');
  fs.writeFileSync(specPath, JSON.stringify(r.spec, null, 2));
  return { spec: r.spec, specPath };
}

/** The demo spec with its idle label changed and one guard made exponential. */
function withExponentialGuard(spec: CliSpecV4): CliSpecV4 {
  const transitions = spec.transitions.map((t, i) => (i === 0 ? { ...t, when: { matches: EXPONENTIAL_REGEX } } : t));
  return { ...spec, transitions, states: spec.states.map((st) => (st.id === 'idle' ? { ...st, label: 'Edited' } : st)) };
}

function reloadOutcome(ev: DashboardEvent): boolean {
  return ev.kind === 'spec_error' || ev.kind === 'spec_reloaded';
}

describe('hot reload through the catalog loader', () => {
  it('refuses an exponential regex in a live session and keeps the running spec', async () => {
    const { spec, specPath } = writeDemoSpec();
    // The agent's HOME and working folder are the temp root: the user's settings stay untouched.
    const s = startLiveSession({
      spec, specPath, hotReload: true, cwd: root,
      extraArgs: ['--speed', '0.5'], extraEnv: { HOME: root, DEMO_AGENT_HOME: path.join(root, '.demo-agent') },
    });
    session = s;
    await s.waitForState('idle', WAIT_MS);
    fs.writeFileSync(specPath, JSON.stringify(withExponentialGuard(spec), null, 2));
    const outcome = await s.waitForEvent(reloadOutcome, WAIT_MS);
    expect(outcome.kind).toBe('spec_error');
    expect(outcome.kind === 'spec_error' && outcome.errors.join('\n')).toMatch(/ReDoS/);
    expect(s.driver.getSpec().transitions[0]!.when).toEqual(spec.transitions[0]!.when);
    expect(s.driver.getCurrentView()?.state.label).toBe('Idle');
  }, TEST_MS);

  it('refuses an exponential regex when a replayed session reloads its spec', () => {
    const { spec, specPath } = writeDemoSpec();
    const cast = parseAsciicast(`${JSON.stringify({ version: 2, width: 80, height: 24 })}\n[0.1, "o", "hello"]\n`);
    const events: DashboardEvent[] = [];
    const r = replaySession({ cast, spec, specPath, tailMs: 100, onEvent: (ev) => events.push(ev) });
    try {
      fs.writeFileSync(specPath, JSON.stringify(withExponentialGuard(spec)));
      expect(r.driver.reloadSpec()).toBe(false);
      const outcome = events.filter(reloadOutcome).at(-1);
      expect(outcome?.kind).toBe('spec_error');
      expect(outcome?.kind === 'spec_error' && outcome.errors.join('\n')).toMatch(/ReDoS/);
      expect(r.driver.getSpec()).toBe(spec);
    } finally {
      r.driver.shutdown();
    }
  });
});
