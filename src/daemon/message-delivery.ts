/**
 * Typing a message into a session, at most once per idempotency key: the message is stored
 * (`queued`) before anything is typed and marked `typing` before the first keystroke, so a
 * retried request — also after a daemon crash — finds the first attempt and types nothing.
 * The answer waits as asked: `accepted` (stored and handed to the driver), `started` (the CLI
 * left idle: the turn began) or `idle` (the turn ended). A wait that a prompt for a person
 * blocks (an approval no policy answers, a picker, a confirm) ends at once as `blocked`, naming
 * the prompt — a script learns it must answer instead of timing out.
 *
 * @module
 */
import type { DashboardEvent } from '../driver/events.js';
import type { MessageOutcome as StoredOutcome, Store } from '../store/index.js';
import { DaemonError } from './errors.js';
import type { Approval } from './approval.js';
import { wireApprovalId, type ManagedSession } from './managed-session.js';

export type Delivery = 'queued' | 'typed' | 'echoed' | 'turn_started' | 'idle' | 'blocked' | 'refused' | 'timed_out';
export interface BlockingPrompt { approval_id: string; title: string | null; kind: 'approval' | 'picker' | 'confirm' | null; buttons: Array<{ index: number; label: string }> }
export interface DeliveryResult { message_id: string; delivery: Delivery; reason: string | null; duplicate: boolean; blocked_by?: BlockingPrompt }

export interface SendInput { text: string; idempotency_key?: string; wait: 'accepted' | 'started' | 'idle'; timeout_ms?: number }

/** Waiting for `started`/`idle` without a timeout gives up after this long. */
const DEFAULT_WAIT_MS = 120_000;

const FROM_STORED: Record<StoredOutcome, Delivery> = {
  queued: 'queued', typing: 'typed', typed: 'typed', echoed: 'echoed', started: 'turn_started', refused: 'refused', failed: 'refused',
};

export async function deliverMessage(session: ManagedSession, store: Store, input: SendInput, now: () => number): Promise<DeliveryResult> {
  const { message, isDuplicate } = store.messages.enqueue({ sessionId: session.id, idempotencyKey: input.idempotency_key ?? null, text: input.text, at: now() });
  const messageId = `m_${message.id}`;
  if (isDuplicate) return { message_id: messageId, delivery: FROM_STORED[message.outcome], reason: message.reason, duplicate: true };
  const driver = session.driver;
  if (!driver || !session.isRunning) {
    const reason = 'the agent is not running; restart the session first';
    store.messages.setOutcome(message.id, 'refused', now(), reason);
    return { message_id: messageId, delivery: 'refused', reason, duplicate: false };
  }
  let delivery = 'queued' as Delivery;
  let settle: (() => void) | null = null;
  let sawStart = false;
  // A queued message is typed after the sends queued before it (first in, first out): until
  // then, the turns that start and end are theirs, not this message's.
  let typedBeforeIt: number | null = null;
  const unsubscribe = driver.subscribe((event: DashboardEvent) => {
    if (typedBeforeIt !== null && typedBeforeIt > 0) {
      if (event.kind === 'send_status' && event.status === 'delivered') typedBeforeIt -= 1;
      if (typedBeforeIt > 0 || event.kind !== 'send_status') {
        if (event.kind === 'exit') unsubscribe();
        settle?.();
        return;
      }
    }
    if (event.kind === 'send_status') {
      // Typed and submitted by the person: a picker the message opens (`/model`) is theirs.
      if (event.status === 'delivered' || event.status === 'submitted') session.notePersonInput();
      if (event.status === 'delivered') { delivery = 'typed'; store.messages.setOutcome(message.id, 'typed', now()); }
      else if (event.status === 'submitted') { sawStart = true; delivery = 'turn_started'; store.messages.setOutcome(message.id, 'started', now()); }
      else if (event.status === 'dropped' || event.status === 'unconfirmed') store.messages.setOutcome(message.id, 'failed', now(), event.reason ?? event.status);
    } else if (event.kind === 'state_changed') {
      if (event.state.status !== 'idle') sawStart = true;
      else if (sawStart && input.wait === 'idle') delivery = 'idle';
    } else if (event.kind === 'exit') {
      unsubscribe();
    }
    settle?.();
  });
  store.messages.setOutcome(message.id, 'typing', now());
  const result = driver.dispatch({ kind: 'send_message', text: input.text });
  if (result.ok && delivery === 'queued') typedBeforeIt = driver.queuedSends();
  if (result.ok) session.notePersonInput();
  if (!result.ok) {
    unsubscribe();
    store.messages.setOutcome(message.id, 'refused', now(), result.reason);
    return { message_id: messageId, delivery: 'refused', reason: `${result.code}: ${result.reason}`, duplicate: false };
  }
  const reached = (): boolean => input.wait === 'accepted'
    || (input.wait === 'started' && (delivery === 'turn_started' || sawStart))
    || (input.wait === 'idle' && delivery === 'idle');
  // Once the message is typed, a prompt that waits for a person ends a wait it blocks.
  const blocking = (): Approval | null => (!reached() && delivery !== 'queued' ? session.promptForPerson() : null);
  const done = (): boolean => reached() || blocking() !== null || !session.isRunning;
  if (!done()) {
    const timeoutMs = input.timeout_ms ?? DEFAULT_WAIT_MS;
    const settled = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      settle = () => { if (done()) { clearTimeout(timer); resolve(true); } };
    });
    settle = null;
    if (!settled) return { message_id: messageId, delivery: 'timed_out', reason: `not ${input.wait} within ${timeoutMs} ms (last: ${delivery})`, duplicate: false };
    if (input.wait === 'started' && reached() && delivery !== 'turn_started') delivery = 'turn_started';
  }
  // Keep recording the outcome until the turn starts; then let go.
  if (delivery === 'turn_started' || delivery === 'idle') unsubscribe();
  if (!session.isRunning) throw new DaemonError('SESSION_NOT_RUNNING', 'the agent exited while the message was being delivered');
  const prompt = blocking();
  if (prompt) {
    const id = wireApprovalId(prompt);
    const what = prompt.kind === 'approval' ? 'an approval' : `a ${prompt.kind ?? 'prompt'}`;
    return {
      message_id: messageId, delivery: 'blocked', duplicate: false,
      reason: `the turn waits for a person: ${what}${prompt.title ? ` "${prompt.title}"` : ''} (${id}); answer it with \`specterm approve ${id} <button>\` or in the dashboard`,
      blocked_by: { approval_id: id, title: prompt.title, kind: prompt.kind, buttons: prompt.buttons },
    };
  }
  return { message_id: messageId, delivery, reason: null, duplicate: false };
}
