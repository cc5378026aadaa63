/**
 * End to end: the real demo agent (dist/demo/main.js) in a real PTY under the real driver and
 * the built-in demo-agent spec, through the live session. Every session gets its own HOME and
 * working folder, so the user's real settings are never touched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import type { CliSpecV4 } from '../src/core/spec/types.js';
import { startLiveSession, type LiveSession, type LiveSessionOptions } from '../src/harness/live-session.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';

/** Real processes on a loaded 2-core box: generous bounds, never relied on for ordering. */
const WAIT_MS = 30_000;
const TEST_MS = 120_000;
const SPEED = '0.5';
const BUTTONS = ['Yes', "Yes, and don't ask again for npm commands", 'No, and tell Demo Agent what to do differently (esc)'];

const sessions: LiveSession[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.stop()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  dirs.push(d);
  return d;
}

/** The built-in spec with its paths already substituted (safe to write anywhere). */
function demoSpec(): CliSpecV4 {
  const r = loadSpecRef('demo-agent');
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.spec;
}

interface Started {
  s: LiveSession;
  home: string;
  cwd: string;
}

function start(opts: Partial<LiveSessionOptions> & { agentArgs?: string[] } = {}): Started {
  const home = tempDir('specterm-e2e-home-');
  const cwd = tempDir('specterm-e2e-project-');
  const s = startLiveSession({
    specRef: opts.spec ? undefined : 'demo-agent',
    ...opts,
    cwd,
    extraArgs: ['--speed', SPEED, ...(opts.agentArgs ?? [])],
    extraEnv: { HOME: home, DEMO_AGENT_HOME: path.join(home, '.demo-agent') },
  });
  sessions.push(s);
  return { s, home, cwd };
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** State ids in order, consecutive repeats collapsed. */
function stateIds(changes: ReadonlyArray<{ state: string }>): string[] {
  return changes.map((c) => c.state).filter((id, i, all) => i === 0 || all[i - 1] !== id);
}

describe('demo agent under the demo-agent spec (real PTY)', () => {
  it('skips the trust prompt via pre_launch_trust and reaches idle', async () => {
    const { s, home, cwd } = start();
    await s.waitForState('idle', WAIT_MS);
    const settings = JSON.parse(fs.readFileSync(path.join(home, '.demo-agent', 'settings.json'), 'utf8')) as { trustedFolders: string[] };
    expect(settings.trustedFolders).toEqual([cwd]);
    expect(s.changes.map((c) => c.state)).not.toContain('trust');
    expect(s.driver.snapshot()).toMatch(/│ ❯ /);
  }, TEST_MS);

  it('shows the trust prompt as an approval modal when pre-trust is off', async () => {
    const { s } = start({ applyTrust: false });
    // The first frame of the prompt may still be partial; wait until its buttons parse.
    const v = await s.waitForState((x) => x.state.id === 'trust' && (x.modal?.buttons.length ?? 0) >= 2, WAIT_MS);
    expect(v.state.status).toBe('approval');
    expect(v.modal?.buttons.map((b) => b.label)).toEqual(['Yes, proceed', 'No, exit']);
  }, TEST_MS);

  it('delivers a message sent before the agent is ready exactly once', async () => {
    const { s } = start();
    expect(s.driver.dispatch({ kind: 'send_message', text: 'hello there' })).toEqual({ ok: true });
    await s.waitForState('busy', WAIT_MS);
    await s.waitForState('idle', WAIT_MS);
    const all = s.driver.getScreenWithScrollback();
    expect(count(all, '> hello there')).toBe(1);
    expect(all).toContain('Hello!');
  }, TEST_MS);

  it('goes generating → approval with the exact buttons → (press 1) generating → idle', async () => {
    const { s } = start();
    await s.waitForState('idle', WAIT_MS);
    s.driver.dispatch({ kind: 'send_message', text: 'run the tests' });
    const approval = await s.waitForState('approval', WAIT_MS);
    expect(approval.modal).toEqual({
      title: 'Bash command',
      buttons: BUTTONS.map((label, i) => ({ index: i + 1, label, current: i === 0 })),
      kind: 'approval',
    });
    expect(s.driver.dispatch({ kind: 'click_modal_button', index: 1 })).toEqual({ ok: true });
    await s.waitForState('busy', WAIT_MS);
    await s.waitForState('idle', WAIT_MS);
    const ids = stateIds(s.changes);
    expect(ids.slice(ids.indexOf('approval'))).toEqual(['approval', 'busy', 'done', 'idle']);
    expect(s.driver.getScreenWithScrollback()).toContain('12 passed');
  }, TEST_MS);

  it('returns to idle without running the tool when No is pressed', async () => {
    const { s } = start();
    await s.waitForState('idle', WAIT_MS);
    s.driver.dispatch({ kind: 'send_message', text: 'run the tests' });
    await s.waitForState('approval', WAIT_MS);
    s.driver.dispatch({ kind: 'click_modal_button', index: 3 });
    await s.waitForState('idle', WAIT_MS);
    const after = stateIds(s.changes).slice(stateIds(s.changes).indexOf('approval') + 1);
    expect(after).not.toContain('busy');
    const all = s.driver.getScreenWithScrollback();
    expect(all).toContain('User declined');
    expect(all).not.toContain('12 passed');
  }, TEST_MS);

  it('opens the model picker by its control, never answers it by itself, and applies the choice', async () => {
    const { s } = start();
    await s.waitForState('idle', WAIT_MS);
    expect(s.driver.dispatch({ kind: 'click_control', control_id: 'model' })).toEqual({ ok: true });
    const picker = await s.waitForState('picker', WAIT_MS);
    expect(picker.modal?.title).toBe('Select model');
    expect(picker.modal?.kind).toBe('picker');
    // Nobody answers: the picker must still be up a while later.
    await new Promise((r) => setTimeout(r, 1500));
    expect(s.driver.getCurrentView()?.state.id).toBe('picker');
    s.driver.dispatch({ kind: 'click_modal_button', index: 2 });
    await s.waitForState('idle', WAIT_MS);
    await s.waitForScreen(/demo-opus/, WAIT_MS);
  }, TEST_MS);

  it('gets the first message into a focus-gated agent thanks to send_on_spawn', async () => {
    const { s } = start({ agentArgs: ['--focus-gated'] });
    await s.waitForState('idle', WAIT_MS);
    s.driver.dispatch({ kind: 'send_message', text: 'hello' });
    await s.waitForState('busy', WAIT_MS);
    await s.waitForState('idle', WAIT_MS);
    expect(count(s.driver.getScreenWithScrollback(), '> hello')).toBe(1);
  }, TEST_MS);

  it('loses the first message of a focus-gated agent when the spec has no send_on_spawn (control)', async () => {
    const spec = demoSpec();
    delete spec.send_on_spawn;
    delete spec.refocus_when_stalled_ms;
    const { s } = start({ spec, agentArgs: ['--focus-gated'] });
    // Without focus-in the agent drops input and never shows its ready hint line.
    await s.waitForScreen(/input paused/, WAIT_MS);
    s.driver.dispatch({ kind: 'send_message', text: 'hello' });
    s.driver.dispatch({ kind: 'pty_write', data: 'hello\r' });
    await new Promise((r) => setTimeout(r, 3000));
    expect(s.changes.map((c) => c.state)).not.toContain('busy');
    expect(s.driver.getScreenWithScrollback()).not.toContain('> hello');
  }, TEST_MS);

  it('wakes an agent frozen by focus loss with the stall watchdog', async () => {
    const spec = { ...demoSpec(), refocus_when_stalled_ms: 1500 };
    const { s } = start({ spec, agentArgs: ['--freeze-on-focus-loss'] });
    await s.waitForState('idle', WAIT_MS);
    s.driver.dispatch({ kind: 'send_message', text: 'tell me something long' });
    await s.waitForState('busy', WAIT_MS);
    // The terminal "loses focus": the agent stops repainting mid-turn.
    s.driver.dispatch({ kind: 'pty_write', data: '\x1b[O' });
    const woke = await s.waitForEvent((ev) => ev.kind === 'log' && ev.message.startsWith('stall watchdog'), WAIT_MS);
    expect(woke.kind).toBe('log');
    await s.waitForState('idle', WAIT_MS);
    expect(s.driver.getScreenWithScrollback()).toMatch(/Worked for \d+s/);
  }, TEST_MS);

  it('hot-reloads the spec file mid-session and shows the new label', async () => {
    const dir = tempDir('specterm-e2e-spec-');
    const specPath = path.join(dir, 'spec.json');
    const spec = demoSpec();
    fs.writeFileSync(specPath, JSON.stringify(spec, null, 2));
    const { s } = start({ spec, specPath, hotReload: true });
    const before = await s.waitForState('idle', WAIT_MS);
    expect(before.state.label).toBe('Idle');
    const edited = { ...spec, states: spec.states.map((st) => (st.id === 'idle' ? { ...st, label: 'Ready for you' } : st)) };
    fs.writeFileSync(specPath, JSON.stringify(edited, null, 2));
    await s.waitForEvent((ev) => ev.kind === 'spec_reloaded', WAIT_MS);
    const after = await s.waitForState((v) => v.state.id === 'idle' && v.state.label === 'Ready for you', WAIT_MS);
    expect(after.state.status).toBe('idle');
    // A broken edit keeps the running spec.
    fs.writeFileSync(specPath, '{ "half": ');
    await s.waitForEvent((ev) => ev.kind === 'spec_error', WAIT_MS);
    expect(s.driver.getCurrentView()?.state.label).toBe('Ready for you');
  }, TEST_MS);

  it('records a session that replays to the state sequence observed live', async () => {
    const dir = tempDir('specterm-e2e-cast-');
    const castPath = path.join(dir, 'session.cast');
    const { s } = start({ record: castPath });
    await s.waitForState('idle', WAIT_MS);
    // Act on a settled screen, so the replay's idle detection does not race the echo by a few ms.
    await new Promise((r) => setTimeout(r, 800));
    s.driver.dispatch({ kind: 'send_message', text: 'run the tests' });
    await s.waitForState('approval', WAIT_MS);
    // Leave the modal up longer than the in-stream evaluation interval (250 ms): answered at once,
    // it can be gone before the replay's next in-stream evaluation, while the live driver saw it.
    await new Promise((r) => setTimeout(r, 600));
    s.driver.dispatch({ kind: 'click_modal_button', index: 1 });
    await s.waitForState('busy', WAIT_MS);
    await s.waitForState('idle', WAIT_MS);
    await new Promise((r) => setTimeout(r, 500));
    const live = stateIds(s.changes);
    await s.stop();
    expect(fs.statSync(castPath).mode & 0o777).toBe(0o600);
    const cast = parseAsciicast(fs.readFileSync(castPath, 'utf8'), { source: castPath });
    expect(cast.events.some((e) => e.type === 'i' && e.data.includes('run the tests'))).toBe(true);
    const r = replaySession({ cast, spec: s.spec });
    r.driver.shutdown();
    expect(stateIds(r.changes)).toEqual(live);
    const liveApproval = s.changes.find((c) => c.state === 'approval')!;
    expect(r.changes.find((c) => c.state === 'approval')!.modal).toEqual(liveApproval.modal);
  }, TEST_MS);
});
