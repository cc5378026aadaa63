#!/usr/bin/env node
/**
 * Records the demo agent's golden sessions: drives the real demo agent (dist/demo/main.js)
 * under specs/demo-agent/spec.json through the live session with recording on, and writes
 * specs/demo-agent/recordings/<name>.cast + <name>.expect.json.
 *
 * Expectations come from what each scenario KNOWS must happen (the states the script waited
 * for, in order, with the exact approval buttons), plus one `at` check in the middle of a
 * visit the live driver observed. They are then checked against a replay of the new
 * recording, so a recording that does not replay to what happened live is never written.
 *
 * Usage: npm run build && node scripts/record-demo.mjs [name…]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startLiveSession } = await import(path.join(root, 'dist/harness/live-session.js'));
const { runSpecTestCase } = await import(path.join(root, 'dist/harness/spec-test.js'));

const SPEC_PATH = path.join(root, 'specs/demo-agent/spec.json');
const OUT_DIR = path.join(root, 'specs/demo-agent/recordings');
/** Scenario pace: fast enough for small files, slow enough that every state is held on screen. */
const SPEED = '0.5';
const WAIT_MS = 30_000;
/** After the last state, keep recording this long so the final screen is in the file. */
const SETTLE_MS = 2500;
/** Pause between reaching a state and acting on it (see settledIdle). */
const ACT_PAUSE_MS = 800;

const APPROVAL_BUTTONS = ['Yes', "Yes, and don't ask again for npm commands", 'No, and tell Demo Agent what to do differently (esc)'];
const APPROVAL_MODAL = { title: 'Bash command', buttons: APPROVAL_BUTTONS, kind: 'approval' };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Idle, then a pause before acting: a message typed the instant idle is detected echoes within a
 * few ms, so whether a replay still sees the stable idle screen would hang on the driver's exact
 * evaluation times. A pause keeps every recording valid across harmless timing changes.
 */
async function settledIdle(s) {
  await s.waitForState('idle', WAIT_MS);
  await sleep(ACT_PAUSE_MS);
}

/** Each scenario drives the session and returns the expected sequence it knows about. */
const SCENARIOS = {
  'start-idle': {
    description: 'start → idle (folder pre-trusted by pre_launch_trust, so no trust prompt)',
    async drive(s) {
      await s.waitForState('idle', WAIT_MS);
      return { sequence: [{ state: 'starting' }, { state: 'idle', status: 'idle', modal: null }], final: { state: 'idle', status: 'idle' } };
    },
  },
  hello: {
    description: '"hello" → generating → turn finished → idle',
    async drive(s) {
      await settledIdle(s);
      s.driver.dispatch({ kind: 'send_message', text: 'hello' });
      await s.waitForState('busy', WAIT_MS);
      await s.waitForState('done', WAIT_MS);
      await s.waitForState('idle', WAIT_MS);
      return {
        sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'busy', status: 'generating', modal: null }, { state: 'done', status: 'idle' }, { state: 'idle' }],
        atState: 'busy',
        final: { state: 'idle' },
      };
    },
  },
  'approve-yes': {
    description: '"run the tests" → approval with the exact buttons → press 1 → generating → idle',
    async drive(s) {
      await settledIdle(s);
      s.driver.dispatch({ kind: 'send_message', text: 'run the tests' });
      await s.waitForState('approval', WAIT_MS);
      await sleep(ACT_PAUSE_MS);
      s.driver.dispatch({ kind: 'click_modal_button', index: 1 });
      await s.waitForState('busy', WAIT_MS);
      await s.waitForState('idle', WAIT_MS);
      return {
        sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'busy' }, { state: 'approval', status: 'approval', modal: APPROVAL_MODAL }, { state: 'busy', modal: null }, { state: 'done' }, { state: 'idle' }],
        atState: 'approval',
        final: { state: 'idle' },
      };
    },
  },
  'approve-no': {
    description: '"run the tests" → approval → press 3 (No) → the turn ends → idle',
    async drive(s) {
      await settledIdle(s);
      s.driver.dispatch({ kind: 'send_message', text: 'run the tests' });
      await s.waitForState('approval', WAIT_MS);
      await sleep(ACT_PAUSE_MS);
      s.driver.dispatch({ kind: 'click_modal_button', index: 3 });
      await s.waitForState((v) => v.state.status === 'idle' && v.state.id !== 'approval', WAIT_MS);
      await s.waitForState('idle', WAIT_MS);
      return {
        sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'approval', modal: APPROVAL_MODAL }, { status: 'idle', modal: null }, { state: 'idle' }],
        atState: 'approval',
        final: { state: 'idle' },
      };
    },
  },
  'model-picker': {
    description: 'the /model picker opened by its control → choose 2 → idle (never auto-answered)',
    async drive(s) {
      await settledIdle(s);
      s.driver.dispatch({ kind: 'click_control', control_id: 'model' });
      await s.waitForState('picker', WAIT_MS);
      await sleep(ACT_PAUSE_MS);
      s.driver.dispatch({ kind: 'click_modal_button', index: 2 });
      await s.waitForState('idle', WAIT_MS);
      return {
        sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'picker', status: 'approval', modal: { title: 'Select model', kind: 'picker' } }, { state: 'idle', modal: null }],
        atState: 'picker',
        final: { state: 'idle' },
      };
    },
  },
  'approve-yes-120x40': {
    description: 'the approval round trip in a 120×40 terminal',
    size: { cols: 120, rows: 40 },
    async drive(s) {
      return SCENARIOS['approve-yes'].drive(s);
    },
  },
};

/** The midpoint of the first live visit of `stateId`, in seconds (rounded to 10 ms). */
function midpointOf(changes, stateId) {
  const i = changes.findIndex((c) => c.state === stateId);
  if (i < 0 || !changes[i + 1]) return null;
  return Math.round(((changes[i].t + changes[i + 1].t) / 2) * 100) / 100;
}

async function record(name) {
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario "${name}" (known: ${Object.keys(SCENARIOS).join(', ')})`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-record-home-'));
  // A fixed folder name so the banner's cwd line is the same in every recording.
  const cwd = path.join(os.tmpdir(), 'demo-project');
  fs.mkdirSync(cwd, { recursive: true });
  const castPath = path.join(OUT_DIR, `${name}.cast`);
  const tmpCast = `${castPath}.tmp`;
  const size = scenario.size ?? { cols: 80, rows: 24 };
  const s = startLiveSession({
    specRef: SPEC_PATH,
    cwd,
    extraArgs: ['--speed', SPEED],
    extraEnv: { HOME: home, DEMO_AGENT_HOME: path.join(home, '.demo-agent') },
    record: tmpCast,
    cols: size.cols,
    rows: size.rows,
  });
  try {
    const known = await scenario.drive(s);
    await sleep(SETTLE_MS);
    await s.stop();
    const expect = { description: scenario.description, sequence: known.sequence, final: known.final };
    const t = known.atState ? midpointOf(s.changes, known.atState) : null;
    if (t !== null) expect.at = [{ t, state: known.atState }];
    const expectPath = path.join(OUT_DIR, `${name}.expect.json`);
    const tmpExpect = `${expectPath}.tmp`;
    fs.writeFileSync(tmpExpect, `${JSON.stringify(expect, null, 2)}\n`);
    // Check the new files before they replace the old ones.
    const result = runSpecTestCase({ name: `demo-agent/${name}`, specId: 'demo-agent', specPath: SPEC_PATH, castPath: tmpCast, expectPath: tmpExpect });
    if (!result.ok) {
      console.error(result.report);
      console.error(`live changes: ${JSON.stringify(s.changes)}`);
      throw new Error(`${name}: the recording does not replay to what happened live; kept ${tmpCast} for inspection`);
    }
    fs.renameSync(tmpCast, castPath);
    fs.renameSync(tmpExpect, expectPath);
    console.log(`${name}: ${fs.statSync(castPath).size} bytes, ${result.changes.length} changes`);
  } finally {
    await s.stop();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

fs.mkdirSync(OUT_DIR, { recursive: true });
const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SCENARIOS);
let failed = 0;
for (const name of names) {
  try {
    await record(name);
  } catch (err) {
    failed += 1;
    console.error(err instanceof Error ? err.message : String(err));
  }
}
process.exit(failed ? 1 : 0);
