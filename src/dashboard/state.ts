/**
 * The dashboard's state as signals: who is signed in (and with which scope), the sessions, the
 * last notification of each, the live connection's status, the error shown, and the route
 * (path-based: `/` overview, `/inbox` the approvals inbox, `/sessions/<id>[/<tab>]` one session,
 * `/recordings[/<name>]`, `/devices`, `/tasks`); a session's first tab depends on the screen (defaultSessionTab).
 * @module
 */
import { signal } from '@preact/signals';
import type { DaemonEvent } from '../protocol/events.js';
import type { SessionDetail } from '../protocol/sessions.js';
import { noticeText } from '../protocol/notice-text.js';
import type { Scope } from '../protocol/scopes.js';
import type { LiveStatus } from './live.js';

export type Route =
  | { view: 'overview' }
  | { view: 'inbox' }
  | { view: 'recordings'; name: string | null }
  | { view: 'devices' }
  | { view: 'tasks' }
  | { view: 'session'; id: string; tab: string };

/** `unknown` until the first answer says whether the cookie works. */
export const auth = signal<'unknown' | 'signed-in' | 'signed-out'>('unknown');
/** The device's scope, from the WebSocket's `hello` (null until it arrived). */
export const scope = signal<Scope | null>(null);
/** This browser's device token (from `hello`; null until it arrived or from an older daemon). */
export const device = signal<{ id: string; name: string } | null>(null);
export const sessions = signal<SessionDetail[] | null>(null);
export const sessionsError = signal<string | null>(null);
export const liveStatus = signal<LiveStatus>('connecting');
/** A session's last notification as a row shows it. */
interface ShownNotice { at: number; text: string }
/** The last notification-worthy event of each session, by session id. */
export const lastNotification = signal<ReadonlyMap<string, ShownNotice>>(new Map());
export const route = signal<Route>(routeOf(location.pathname));

export function routeOf(pathname: string): Route {
  if (pathname === '/inbox') return { view: 'inbox' };
  if (pathname === '/devices') return { view: 'devices' };
  if (pathname === '/tasks') return { view: 'tasks' };
  const recordings = /^\/recordings(?:\/([A-Za-z0-9_-]{1,64}))?$/.exec(pathname);
  if (recordings) return { view: 'recordings', name: recordings[1] ?? null };
  const match = /^\/sessions\/([A-Za-z0-9_-]{1,64})(?:\/([a-z-]{1,32}))?$/.exec(pathname);
  return match ? { view: 'session', id: match[1]!, tab: match[2] ?? defaultSessionTab() } : { view: 'overview' };
}

/** A phone, by the width the stylesheet's phone rules use. */
export const PHONE_QUERY = '(max-width: 600px)';

/**
 * The tab `/sessions/<id>` opens: on a phone the Transcript (a 120-column terminal is
 * unreadable there; the terminal is one tap away), elsewhere the Terminal.
 */
export function defaultSessionTab(): 'transcript' | 'terminal' {
  return typeof matchMedia === 'function' && matchMedia(PHONE_QUERY).matches ? 'transcript' : 'terminal';
}

/** Goes to `path` in the app (pushState) without a page load. */
export function navigate(path: string): void {
  history.pushState(null, '', path);
  route.value = routeOf(location.pathname);
}

/** Takes each session's `last_notice` from a list read, unless the page already heard a newer one. */
export function noteListedNotices(list: readonly SessionDetail[]): void {
  let next: Map<string, ShownNotice> | null = null;
  for (const session of list) {
    const notice = session.last_notice;
    if (!notice) continue;
    const known = (next ?? lastNotification.value).get(session.id);
    if (known && known.at >= notice.at) continue;
    next ??= new Map(lastNotification.value);
    next.set(session.id, { at: notice.at, text: notice.text });
  }
  if (next) lastNotification.value = next;
}

/** The newest event seq the page has had: a list's `event_seq`, then each event of `sessions`. */
let newestEventSeqSeen: number | undefined;

export function noteEventSeq(seq: number | undefined): void {
  if (seq !== undefined && (newestEventSeqSeen === undefined || seq > newestEventSeqSeen)) newestEventSeqSeen = seq;
}

/**
 * Where an event subscription starts (`LiveConnection.subscribeEvents`' `from`): after the newest
 * event the page has had, since what it read reflects everything up to there. Without it the
 * daemon replays its whole kept history on every page load; a session page then read its
 * session once per past event.
 */
export function newestEventSeq(): number | undefined {
  return newestEventSeqSeen;
}

/** Records `event` as its session's last notification when it is one. */
export function noteEvent(event: DaemonEvent): void {
  const text = noticeText(event);
  if (text === null) return;
  const next = new Map(lastNotification.value);
  next.set(event.session_id, { at: event.at, text });
  lastNotification.value = next;
}

addEventListener('popstate', () => { route.value = routeOf(location.pathname); });
