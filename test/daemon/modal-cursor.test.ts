/**
 * Where the CLI's cursor is in a modal (`buttons[].current`): derived by the daemon from a real
 * driver on a scripted screen (a cursor move re-sends `session.state`, the same modal otherwise
 * stays quiet), and end to end through `specterm serve` with the real Demo Agent, whose cursor
 * moves with the arrow keys.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../../src/protocol/index.js';
import { APPROVAL, approvalWithCursorOn, toIdle } from '../helpers/driver-harness.js';
import { paint } from '../helpers/scripted-transport.js';
import { startDaemonWithIdleSession, stopAll, waitFor } from './daemon-harness.js';
import { closeManaged, managed } from './managed-harness.js';

const WAIT_MS = 60_000;
afterEach(async () => { closeManaged(); await stopAll(); }, 60_000);

const cursorOf = (buttons: ReadonlyArray<{ index: number; current: boolean }> | undefined) => buttons?.filter((b) => b.current).map((b) => b.index);
const CURSOR_ON_3 = approvalWithCursorOn(3);

describe('the cursor of a modal', () => {
  it('is in the session\'s modal view, and moving it re-sends session.state for the same approval', () => {
    const { h, events, session } = managed();
    toIdle(h);
    h.tx.emit(paint(APPROVAL));
    h.at(700);
    const approvalId = session.modalView()!.approval_id;
    expect(cursorOf(session.modalView()!.buttons)).toEqual([1]);
    const states = () => events.filter((e): e is Extract<DaemonEvent, { type: 'session.state' }> => e.type === 'session.state');
    const before = states().length;
    h.tx.emit(paint(CURSOR_ON_3));
    h.at(900);
    expect(states().slice(before).map((e) => [e.modal?.approval_id, cursorOf(e.modal?.buttons)])).toEqual([[approvalId, [3]]]);
    expect(cursorOf(session.modalView()!.buttons)).toEqual([3]);
    expect(events.filter((e) => e.type === 'approval.needed')).toHaveLength(1); // the same approval
    h.tx.emit(paint(CURSOR_ON_3));
    h.at(1100);
    expect(states().length).toBe(before + 1);
  });

  it('follows the Demo Agent\'s arrow keys through the API', async () => {
    const { daemon, sessionId } = await startDaemonWithIdleSession(WAIT_MS);
    const { client } = daemon;
    await client.call('sendMessage', { params: { id: sessionId }, body: { text: 'run the tests', wait: 'started', timeout_ms: WAIT_MS } });
    const cursor = async () => cursorOf((await client.call('getSession', { params: { id: sessionId } })).modal?.buttons);
    await waitFor(async () => (await cursor())?.length === 1, WAIT_MS, 'the approval with its cursor');
    expect(await cursor()).toEqual([1]);
    await client.call('sendKeys', { params: { id: sessionId }, body: { data: '\x1b[B' } });
    await waitFor(async () => (await cursor())?.[0] === 2, WAIT_MS, 'the cursor on option 2');
    const approvals = (await client.call('listApprovals')).approvals.filter((a) => a.session_id === sessionId);
    expect(approvals).toHaveLength(1); // moving the cursor is not a new approval
  }, 120_000);
});
