/**
 * The live counterpart of `src/driver/fsm-driver.test.ts`: a real `FsmDriver` with a
 * `RealScheduler`, a real PTY and the scripted fake agent (`test/fixtures/agents/fake-agent.mjs`).
 * Each test asserts on what the agent LOGGED (messages it received, keys, focus events, resizes,
 * modal answers) and on the driver's events. Waits are event- or poll-driven with generous
 * bounds (2 cores, other suites in parallel); no test relies on a fixed sleep.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DashboardEvent } from '../src/driver/events.js';
import { startLiveDriver, processExists, type AgentLogEntry, type LiveDriver, type LiveDriverOptions } from './helpers/live-driver.js';

/** Bound for one wait (a state, a log line): far above the agent's timings, reached only on failure. */
const WAIT_MS = 15_000;
const FOCUS_IN = '\x1b[I';
const FOCUS_OUT = '\x1b[O';
/** As the approval first shows: the cursor on option 1. */
const MODAL_BUTTONS = [
  { index: 1, label: 'Yes', current: true },
  { index: 2, label: "Yes, and don't ask again this session", current: false },
  { index: 3, label: 'No, and tell Claude what to do differently', current: false },
];

const running: LiveDriver[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((l) => l.cleanup()));
});

function live(opts: LiveDriverOptions = {}): LiveDriver {
  const l = startLiveDriver(opts);
  running.push(l);
  return l;
}

function hasEntry(entries: AgentLogEntry[], pred: (e: Record<string, unknown>) => boolean): boolean {
  return entries.some((e) => pred(e as Record<string, unknown>));
}

function indexOfEntry(entries: AgentLogEntry[], pred: (e: Record<string, unknown>) => boolean, from = 0): number {
  for (let i = from; i < entries.length; i++) if (pred(entries[i] as Record<string, unknown>)) return i;
  return -1;
}

function count(entries: AgentLogEntry[], pred: (e: Record<string, unknown>) => boolean): number {
  return entries.filter((e) => pred(e as Record<string, unknown>)).length;
}

function sendStatuses(events: DashboardEvent[], since = 0): Array<Extract<DashboardEvent, { kind: 'send_status' }>> {
  return events.slice(since).flatMap((e) => (e.kind === 'send_status' ? [e] : []));
}

function eventIndex(events: DashboardEvent[], pred: (e: DashboardEvent) => boolean, from = 0): number {
  for (let i = from; i < events.length; i++) if (pred(events[i]!)) return i;
  return -1;
}

/** Waits for the first busy at or after event index `since`, then for the idle that ends it. */
async function waitTurnEnd(l: LiveDriver, since: number): Promise<void> {
  await l.waitForState('busy', WAIT_MS, since);
  const busyAt = eventIndex(l.events, (e) => e.kind === 'state_changed' && e.state.id === 'busy', since);
  await l.waitForState('idle', WAIT_MS, busyAt);
}

/** Sends a message at idle and waits until its turn is over (busy, then idle again). */
async function runTurn(l: LiveDriver, text: string): Promise<void> {
  const m = l.mark();
  expect(l.driver.dispatch({ kind: 'send_message', text })).toEqual({ ok: true });
  await waitTurnEnd(l, m);
}

describe('FsmDriver live: readiness and the first message', () => {
  it('delivers a message sent before ready exactly once after starting → idle, with hasSeenReady() already true for the first idle (§13.1)', async () => {
    const l = live({ startupMs: 700, agentArgs: ['--work-ms', '300'], autoStart: false });
    let readyInFirstIdle: boolean | null = null;
    l.driver.subscribe((ev) => {
      if (ev.kind === 'state_changed' && ev.state.id === 'idle' && readyInFirstIdle === null) readyInFirstIdle = l.driver.hasSeenReady();
    });
    l.start();
    expect(l.driver.getCurrentView()?.state.id).toBe('starting');
    expect(l.driver.hasSeenReady()).toBe(false);

    expect(l.driver.dispatch({ kind: 'send_message', text: 'hello before ready' })).toEqual({ ok: true });
    expect(sendStatuses(l.events)).toEqual([expect.objectContaining({ status: 'queued', reason: expect.stringMatching(/not ready/) })]);

    await l.waitForLog((e) => hasEntry(e, (x) => x.received === 'hello before ready'), WAIT_MS, 'the first message to be received');
    await waitTurnEnd(l, 0);
    expect(readyInFirstIdle).toBe(true);
    expect(l.states()).toEqual(['starting', 'idle', 'busy', 'idle']);
    expect(l.received()).toEqual(['hello before ready']);
    // Nothing of the body was written before the agent drew its first screen.
    const bodyWrite = l.writes.find((w) => w.data === 'hello before ready');
    expect(bodyWrite).toBeDefined();
    expect(bodyWrite!.at).toBeGreaterThanOrEqual(l.output[0]!.at);
    expect(sendStatuses(l.events).map((s) => s.status)).toEqual(['queued', 'delivered', 'submitted']);
  });
});

describe('FsmDriver live: approvals', () => {
  it('reports the approval with its three buttons, presses 1 to approve (→ busy → idle) and 3 to deny (→ idle)', async () => {
    const l = live({ agentArgs: ['--work-ms', '300'] });
    await l.waitForState('idle', WAIT_MS);

    // Turn 1: approve.
    let m = l.mark();
    expect(l.driver.dispatch({ kind: 'send_message', text: 'please approve the cleanup' })).toEqual({ ok: true });
    const approval = await l.waitForEvent('state_changed', (e) => e.state.id === 'approval', WAIT_MS, m);
    expect(approval.state.status).toBe('approval');
    expect(approval.modal).toEqual({ title: 'Bash command', buttons: MODAL_BUTTONS, kind: 'approval' });
    expect(l.driver.getCurrentView()?.modal?.buttons).toEqual(MODAL_BUTTONS);

    m = l.mark();
    expect(l.driver.dispatch({ kind: 'click_modal_button', index: 1, label: 'Yes' })).toEqual({ ok: true });
    await l.waitForState('busy', WAIT_MS, m);
    await l.waitForState('idle', WAIT_MS, m);
    // The latched approval may be re-emitted once with its modal gone before the spinner is seen.
    expect(l.states(m).filter((id) => id !== 'approval')).toEqual(['busy', 'idle']);
    expect(l.driver.snapshot()).toContain('● Done: please approve the cleanup');

    // Turn 2: deny.
    m = l.mark();
    expect(l.driver.dispatch({ kind: 'send_message', text: 'approve the second cleanup too' })).toEqual({ ok: true });
    await l.waitForState('approval', WAIT_MS, m);
    m = l.mark();
    expect(l.driver.dispatch({ kind: 'click_modal_button', index: 3 })).toEqual({ ok: true });
    await l.waitForState('idle', WAIT_MS, m);
    expect(l.states(m).filter((id) => id !== 'approval')).toEqual(['idle']);
    expect(l.driver.snapshot()).toContain('✗ Denied');

    const log = l.logEntries();
    expect(log.filter((e) => 'modal' in e)).toEqual([
      { modal: 'answered', choice: 1 },
      { modal: 'answered', choice: 3 },
    ]);
    expect(l.received()).toEqual(['please approve the cleanup', 'approve the second cleanup too']);
    // A press with no modal on screen is refused and writes nothing.
    const before = l.writes.length;
    expect(l.driver.dispatch({ kind: 'click_modal_button', index: 1 })).toMatchObject({ ok: false, reason: expect.stringMatching(/no modal/) });
    expect(l.writes.length).toBe(before);
  });
});

describe('FsmDriver live: message delivery', () => {
  it('delivers two back-to-back messages one at a time, in order, each exactly once (§13.17)', async () => {
    const l = live({ agentArgs: ['--work-ms', '300'] });
    await l.waitForState('idle', WAIT_MS);
    const m = l.mark();
    expect(l.driver.dispatch({ kind: 'send_message', text: 'first message' })).toEqual({ ok: true });
    expect(l.driver.dispatch({ kind: 'send_message', text: 'second message!' })).toEqual({ ok: true });

    const second = await l.waitForEvent('send_status', (e) => e.status === 'delivered' && e.length === 'second message!'.length, WAIT_MS, m);
    await waitTurnEnd(l, l.events.indexOf(second));
    expect(l.received()).toEqual(['first message', 'second message!']);

    // The second body went out only after the first turn visibly ended (busy → idle).
    const ev = l.events;
    const firstBusy = eventIndex(ev, (e) => e.kind === 'state_changed' && e.state.id === 'busy', m);
    const idleAfter = eventIndex(ev, (e) => e.kind === 'state_changed' && e.state.id === 'idle', firstBusy);
    const secondDelivered = eventIndex(ev, (e) => e.kind === 'send_status' && e.status === 'delivered' && e.length === 'second message!'.length, m);
    expect(firstBusy).toBeGreaterThan(-1);
    expect(idleAfter).toBeGreaterThan(firstBusy);
    expect(secondDelivered).toBeGreaterThan(idleAfter);
    expect(sendStatuses(ev, m).filter((s) => s.length === 'second message!'.length)[0]).toMatchObject({ status: 'queued' });
    // The agent never had to queue anything itself: each body arrived at its idle prompt.
    const log = l.logEntries();
    const firstReceived = indexOfEntry(log, (x) => x.received === 'first message');
    const secondKeys = indexOfEntry(log, (x) => typeof x.keys === 'string' && x.keys.includes('second'));
    expect(secondKeys).toBeGreaterThan(firstReceived);
    expect(l.writes.filter((w) => w.data === 'first message')).toHaveLength(1);
    expect(l.writes.filter((w) => w.data === 'second message!')).toHaveLength(1);
  });

  it('drops the same text sent again while the agent works on it, and takes it as a new turn at a settled prompt (§13.18)', async () => {
    const l = live({ agentArgs: ['--work-ms', '300'] });
    await l.waitForState('idle', WAIT_MS);
    const m = l.mark();
    expect(l.driver.dispatch({ kind: 'send_message', text: 'run the tests' })).toEqual({ ok: true });
    const again = l.driver.dispatch({ kind: 'send_message', text: 'run the tests' });
    expect(again).toMatchObject({ ok: false, reason: expect.stringMatching(/duplicate/) });
    expect(sendStatuses(l.events, m).map((s) => s.status)).toEqual(['delivered', 'dropped']);

    await waitTurnEnd(l, m);
    expect(l.received()).toEqual(['run the tests']);
    expect(l.writes.filter((w) => w.data === 'run the tests')).toHaveLength(1);

    // At a settled idle prompt the same text is a new turn.
    await runTurn(l, 'run the tests');
    expect(l.received()).toEqual(['run the tests', 'run the tests']);
  });

  it('submits a long body only after its slow echo is on screen and input is quiet; received once, whole (§13.19)', async () => {
    const l = live({ agentArgs: ['--slow-echo-ms', '800', '--work-ms', '300'] });
    const body = `long-body-start ${Array.from({ length: 90 }, (_, i) => `word${i}`).join(' ')} long-body-end`;
    expect(body.length).toBeGreaterThanOrEqual(512);
    await l.waitForState('idle', WAIT_MS);
    const m = l.mark();
    expect(l.driver.dispatch({ kind: 'send_message', text: body })).toEqual({ ok: true });

    await l.waitForLog((e) => hasEntry(e, (x) => 'received' in x), WAIT_MS, 'the long body to be received');
    await waitTurnEnd(l, m);
    expect(l.received()).toEqual([body]);

    const bodyWrites = l.writes.filter((w) => w.data === body);
    expect(bodyWrites).toHaveLength(1);
    // When did the echo arrive? Scan the output as one stream (a repaint may be split in chunks).
    const tail = body.slice(-32);
    let acc = '';
    let echoAt = -1;
    for (const chunk of l.output) {
      acc = (acc + chunk.data).slice(-(tail.length + chunk.data.length));
      if (chunk.at >= bodyWrites[0]!.at && acc.includes(tail)) { echoAt = chunk.at; break; }
    }
    expect(echoAt).toBeGreaterThan(-1);
    expect(echoAt - bodyWrites[0]!.at).toBeGreaterThanOrEqual(700); // the agent's 800 ms echo lag
    const firstSubmit = l.writes.find((w) => w.data === '\r' && w.at >= bodyWrites[0]!.at);
    expect(firstSubmit).toBeDefined();
    // Echo gate: the submit waits for the echo plus 500 ms of quiet input (1 ms of clock slack).
    expect(firstSubmit!.at).toBeGreaterThanOrEqual(echoAt + 499);
  });

  it('gets a message submitted through a swallowed first Enter with the resend net; received once', async () => {
    const l = live({ agentArgs: ['--swallow-first-enter', '--work-ms', '300'] });
    await l.waitForState('idle', WAIT_MS);
    const m = l.mark();
    expect(l.driver.dispatch({ kind: 'send_message', text: 'hello past the swallowed enter' })).toEqual({ ok: true });

    await l.waitForLog((e) => hasEntry(e, (x) => 'received' in x), WAIT_MS, 'the message to be received');
    await waitTurnEnd(l, m);
    const log = l.logEntries();
    expect(l.received()).toEqual(['hello past the swallowed enter']);
    expect(count(log, (x) => x.swallowed === 'enter')).toBe(1);
    // The swallowed Enter came first, the resent one submitted.
    const swallowed = indexOfEntry(log, (x) => x.swallowed === 'enter');
    expect(indexOfEntry(log, (x) => x.received === 'hello past the swallowed enter')).toBeGreaterThan(swallowed);
    const submits = l.writes.filter((w) => w.data === '\r');
    expect(submits.length).toBeGreaterThanOrEqual(2);
    expect(submits[1]!.at - submits[0]!.at).toBeGreaterThanOrEqual(300); // the 350 ms resend gap
    expect(sendStatuses(l.events).map((s) => s.status)).toEqual(['delivered', 'submitted']);
  });
});

describe('FsmDriver live: focus-gated agents', () => {
  it('with send_on_spawn focus-in, the first message (sent before ready) is received; focus-in is written once, after the first output (§13.21)', async () => {
    const l = live({ specFile: 'fake-agent-focus.json', startupMs: 300, agentArgs: ['--focus-gated', '--work-ms', '300'] });
    expect(l.driver.dispatch({ kind: 'send_message', text: 'hello focused agent' })).toEqual({ ok: true });

    await l.waitForLog((e) => hasEntry(e, (x) => x.received === 'hello focused agent'), WAIT_MS, 'the message to be received');
    await waitTurnEnd(l, 0);
    const log = l.logEntries();
    expect(l.received()).toEqual(['hello focused agent']);
    expect(count(log, (x) => 'dropped' in x)).toBe(0);
    expect(count(log, (x) => x.focus === 'in')).toBe(1);
    const focusWrites = l.writes.filter((w) => w.data === FOCUS_IN);
    expect(focusWrites).toHaveLength(1);
    // send_on_spawn_delay_ms (250) after the first output, not a fixed delay after spawn.
    expect(focusWrites[0]!.at - l.output[0]!.at).toBeGreaterThanOrEqual(200);
  });

  it('without send_on_spawn (control), the focus-gated agent drops the message', async () => {
    const l = live({ agentArgs: ['--focus-gated', '--work-ms', '300'] });
    await l.waitForState('idle', WAIT_MS);
    expect(l.driver.dispatch({ kind: 'send_message', text: 'hello unfocused agent' })).toEqual({ ok: true });

    const log = await l.waitForLog(
      (e) => e.flatMap((x) => (typeof (x as { dropped?: unknown }).dropped === 'string' ? [(x as { dropped: string }).dropped] : [])).join('').includes('hello unfocused agent\r'),
      WAIT_MS, 'the body and its Enter to be dropped');
    expect(l.received()).toEqual([]);
    expect(count(log, (x) => x.focus === 'in')).toBe(0);
    expect(l.writes.some((w) => w.data === FOCUS_IN)).toBe(false);
    expect(l.driver.getCurrentView()?.state.id).toBe('idle');
  });

  it('the stall watchdog wakes an agent frozen mid-turn (--freeze-after-ms) with a focus-in, and the turn completes', async () => {
    const l = live({ specFile: 'fake-agent-focus-stall.json', agentArgs: ['--focus-gated', '--freeze-after-ms', '300', '--work-ms', '800'] });
    await l.waitForState('idle', WAIT_MS);
    // The spawn prime has been written before the message, so the message is not dropped.
    await l.waitForLog((e) => hasEntry(e, (x) => x.focus === 'in'), WAIT_MS, 'the spawn focus-in');
    const m = l.mark();
    expect(l.driver.dispatch({ kind: 'send_message', text: 'freeze after a while' })).toEqual({ ok: true });

    const log = await l.waitForLog((e) => {
      const frozen = indexOfEntry(e, (x) => x.frozen === true);
      return frozen >= 0 && indexOfEntry(e, (x) => x.focus === 'in', frozen) > frozen;
    }, WAIT_MS, 'a focus-in after the freeze');
    const frozenAt = indexOfEntry(log, (x) => x.frozen === true);
    expect(indexOfEntry(log, (x) => x.frozen === false, frozenAt)).toBeGreaterThan(frozenAt);
    await waitTurnEnd(l, m);
    expect(l.driver.snapshot()).toContain('● Done: freeze after a while');
    expect(l.received()).toEqual(['freeze after a while']);
    expect(l.events.some((e) => e.kind === 'log' && /stall watchdog/.test(e.message))).toBe(true);
    expect(l.writes.filter((w) => w.data === FOCUS_IN).length).toBeGreaterThanOrEqual(2);
  });

  it('the stall watchdog wakes an agent frozen by a focus-out (--freeze-on-focus-out), and the turn completes', async () => {
    const l = live({ specFile: 'fake-agent-focus-stall.json', agentArgs: ['--focus-gated', '--freeze-on-focus-out', '--work-ms', '1500'] });
    await l.waitForState('idle', WAIT_MS);
    await l.waitForLog((e) => hasEntry(e, (x) => x.focus === 'in'), WAIT_MS, 'the spawn focus-in');
    const m = l.mark();
    expect(l.driver.dispatch({ kind: 'send_message', text: 'freeze on focus out' })).toEqual({ ok: true });
    await l.waitForState('busy', WAIT_MS, m);
    expect(l.driver.dispatch({ kind: 'pty_write', data: FOCUS_OUT })).toEqual({ ok: true });

    const log = await l.waitForLog((e) => {
      const frozen = indexOfEntry(e, (x) => x.frozen === true);
      return frozen >= 0 && indexOfEntry(e, (x) => x.focus === 'in', frozen) > frozen;
    }, WAIT_MS, 'a focus-in written by the watchdog after the freeze');
    const frozenAt = indexOfEntry(log, (x) => x.frozen === true);
    expect(indexOfEntry(log, (x) => x.focus === 'out')).toBeLessThan(frozenAt);
    await waitTurnEnd(l, m);
    expect(l.driver.snapshot()).toContain('● Done: freeze on focus out');
    expect(l.received()).toEqual(['freeze on focus out']);
  });
});

describe('FsmDriver live: exits, failures and shutdown', () => {
  it('reports exit code 3 when the agent crashes, leaves no timer, and refuses later commands with a reason', async () => {
    const l = live({ agentArgs: ['--crash-on', 'crash now'] });
    await l.waitForState('idle', WAIT_MS);
    expect(l.driver.dispatch({ kind: 'send_message', text: 'crash now' })).toEqual({ ok: true });

    const exit = await l.waitForEvent('exit', () => true, WAIT_MS);
    expect(exit.exit_code).toBe(3);
    expect(l.received()).toEqual(['crash now']);
    expect(l.driver.isStopped()).toBe(true);
    expect(l.scheduler.pendingCount()).toBe(0);
    expect(l.driver.hasInFlightSubmit()).toBe(false);

    const m = l.mark();
    for (const cmd of [
      { kind: 'send_message', text: 'are you there?' },
      { kind: 'resize', cols: 100, rows: 30 },
      { kind: 'click_modal_button', index: 1 },
      { kind: 'pty_write', data: 'x' },
    ] as const) {
      expect(l.driver.dispatch(cmd)).toEqual({ ok: false, code: 'EXITED', reason: 'the agent has exited' });
    }
    expect(l.events.slice(m).map((e) => e.kind)).toEqual(['command_refused', 'command_refused', 'command_refused', 'command_refused']);
    expect(l.scheduler.pendingCount()).toBe(0);
  });

  it('turns a binary that is not installed into a spawn_error naming it and the directories searched; start() does not throw', async () => {
    const l = live({ specFile: 'fake-agent-missing-binary.json', autoStart: false });
    expect(() => l.start()).not.toThrow();
    const err = l.events.find((e): e is Extract<DashboardEvent, { kind: 'spawn_error' }> => e.kind === 'spawn_error');
    expect(err).toBeDefined();
    expect(err!.binary).toBe('definitely-not-installed-xyz');
    expect(err!.message).toContain('definitely-not-installed-xyz');
    const pathDirs = (process.env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d));
    expect(pathDirs.length).toBeGreaterThan(0);
    for (const d of pathDirs) expect(err!.searched).toContain(d);
    expect(l.pid()).toBeUndefined();
    expect(l.driver.isStopped()).toBe(true);
    expect(l.scheduler.pendingCount()).toBe(0);
    expect(l.driver.dispatch({ kind: 'send_message', text: 'hello' })).toEqual({ ok: false, code: 'SHUT_DOWN', reason: 'the session is shut down' });
  });

  it('shutdown mid-turn leaves no child process, no timer and no attached-image temp file', async () => {
    const l = live({ specFile: 'fake-agent-attach.json', agentArgs: ['--work-ms', '20000'] });
    await l.waitForState('idle', WAIT_MS);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
    expect(l.driver.dispatch({ kind: 'attach_image', blob: png, mime: 'image/png' })).toEqual({ ok: true });
    const attachWrite = l.writes.find((w) => w.data.startsWith('@'));
    expect(attachWrite).toBeDefined();
    const imagePath = attachWrite!.data.slice(1).trim();
    expect(imagePath.endsWith('.png')).toBe(true);
    expect(fs.existsSync(imagePath)).toBe(true);

    const m = l.mark();
    expect(l.driver.dispatch({ kind: 'send_message', text: 'describe this image' })).toEqual({ ok: true });
    await l.waitForState('busy', WAIT_MS, m);
    await l.waitForLog((e) => hasEntry(e, (x) => typeof x.received === 'string' && x.received.endsWith('describe this image')), WAIT_MS, 'the message');
    const pid = l.pid();
    expect(pid).toBeGreaterThan(0);
    expect(processExists(pid!)).toBe(true);

    expect(l.driver.dispatch({ kind: 'shutdown' })).toEqual({ ok: true });
    expect(l.scheduler.pendingCount()).toBe(0);
    expect(fs.existsSync(imagePath)).toBe(false);
    await l.waitFor(() => !processExists(pid!), WAIT_MS, `pid ${pid} to be gone`);
    expect(() => process.kill(pid!, 0)).toThrow();
    expect(l.scheduler.pendingCount()).toBe(0);
    expect(l.driver.dispatch({ kind: 'send_message', text: 'too late' })).toEqual({ ok: false, code: 'SHUT_DOWN', reason: 'the session is shut down' });
  });
});

describe('FsmDriver live: terminal geometry and modes', () => {
  it('a resize command reaches the agent (it logs the new size) and the screen follows', async () => {
    const l = live();
    await l.waitForState('idle', WAIT_MS);
    expect(l.driver.dispatch({ kind: 'resize', cols: 100, rows: 30 })).toEqual({ ok: true });
    await l.waitForLog((e) => hasEntry(e, (x) => JSON.stringify(x.resize) === '[100,30]'), WAIT_MS, 'resize [100,30]');
    await l.waitFor(() => l.driver.snapshot().split('\n').includes('─'.repeat(100)), WAIT_MS, 'a 100-column rule on screen');

    expect(l.driver.dispatch({ kind: 'resize', cols: 60, rows: 20 })).toEqual({ ok: true });
    await l.waitForLog((e) => hasEntry(e, (x) => JSON.stringify(x.resize) === '[60,20]'), WAIT_MS, 'resize [60,20]');
    await l.waitFor(() => l.driver.snapshot().split('\n').includes('─'.repeat(60)), WAIT_MS, 'a 60-column rule on screen');
    const lines = l.driver.snapshot().split('\n');
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(lines.every((line) => Array.from(line).length <= 60)).toBe(true);
    expect(l.driver.getCurrentView()?.state.id).toBe('idle');
  });

  it('exposes the modes the child enabled: focus reporting with --focus-gated, none without', async () => {
    const gated = live({ specFile: 'fake-agent-focus.json', agentArgs: ['--focus-gated'] });
    const plain = live();
    await Promise.all([gated.waitForState('idle', WAIT_MS), plain.waitForState('idle', WAIT_MS)]);
    expect(gated.driver.getTerminalModes()).toMatchObject({ focusReporting: true, bracketedPaste: false, altScreen: false });
    expect(plain.driver.getTerminalModes()).toMatchObject({ focusReporting: false, bracketedPaste: false, altScreen: false });
  });
});
