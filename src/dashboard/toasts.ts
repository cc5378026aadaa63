/**
 * In-page notifications (toasts) for the events that call for a person: approval needed, turn
 * finished, exited, error, spec error. Which events are new: the `sessions` topic replays its
 * backlog on every (re)connect, so an event counts once (by seq) and only when it happened after
 * the page loaded. A toast for the session on screen is not shown while the page is visible:
 * its header already says it (approvals included: the header names the modal and links the
 * inbox). Approvals stay until opened, dismissed or answered; the rest go after
 * {@link TOAST_TIMEOUT_MS}.
 * @module
 */
import { signal } from '@preact/signals';
import { isMutedEvent, type DaemonEvent } from '../protocol/events.js';
import { noticeText } from '../protocol/notice-text.js';
import { route } from './state.js';

export interface Toast {
  /** The event's seq: unique, and the key of the rendered item. */
  seq: number;
  sessionId: string;
  type: DaemonEvent['type'];
  text: string;
  /** Approval needed: announced assertively and kept until acted on. */
  urgent: boolean;
}

/** Long enough to read two lines and reach the link; approvals never time out. */
export const TOAST_TIMEOUT_MS = 8_000;
/** At most this many at once: a burst of exits must not cover the page. */
const MAX_TOASTS = 5;
/** The daemon's and this page's clocks may differ a little (a phone on the LAN). */
const CLOCK_SLACK_MS = 5_000;
/** Seqs remembered for deduplication; only events after the page loaded are remembered. */
const MAX_SEEN = 1_000;

export const toasts = signal<readonly Toast[]>([]);

const loadedAt = Date.now();
const seen = new Set<number>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

/**
 * True once per event that happened while this page was open (not a replayed one). Shared by
 * the toasts and the page's system notifications, so each is shown at most once per event.
 */
export function isNewEvent(event: DaemonEvent): boolean {
  if (event.at < loadedAt - CLOCK_SLACK_MS || seen.has(event.seq)) return false;
  seen.add(event.seq);
  if (seen.size > MAX_SEEN) seen.delete(seen.values().next().value!);
  return true;
}

/** Whether the person is looking at session `sessionId` right now. */
export function viewingSession(sessionId: string): boolean {
  const current = route.value;
  return document.visibilityState === 'visible' && current.view === 'session' && current.id === sessionId;
}

/** Shows the toast `event` calls for (call only for a new event, see {@link isNewEvent}). */
export function toastEvent(event: DaemonEvent): void {
  // An answered approval's toast is stale: whoever answered it (here or elsewhere) is done.
  if (event.type === 'approval.answered') return removeWhere((t) => t.urgent && t.sessionId === event.session_id);
  if (viewingSession(event.session_id) || isMutedEvent(event)) return;
  const text = noticeText(event);
  if (text === null) return;
  const toast: Toast = { seq: event.seq, sessionId: event.session_id, type: event.type, text, urgent: event.type === 'approval.needed' };
  // One toast per session and kind: the newer replaces the older.
  const kept = toasts.value.filter((t) => !(t.sessionId === toast.sessionId && t.type === toast.type));
  for (const t of toasts.value) if (!kept.includes(t)) clearTimer(t.seq);
  const next = [...kept, toast];
  while (next.length > MAX_TOASTS) clearTimer(next.shift()!.seq);
  toasts.value = next;
  if (!toast.urgent) timers.set(toast.seq, setTimeout(() => dismissToast(toast.seq), TOAST_TIMEOUT_MS));
}

export function dismissToast(seq: number): void {
  removeWhere((t) => t.seq === seq);
}

function removeWhere(drop: (t: Toast) => boolean): void {
  const next = toasts.value.filter((t) => !drop(t));
  if (next.length === toasts.value.length) return;
  for (const t of toasts.value) if (drop(t)) clearTimer(t.seq);
  toasts.value = next;
}

function clearTimer(seq: number): void {
  clearTimeout(timers.get(seq));
  timers.delete(seq);
}
