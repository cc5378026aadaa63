/**
 * The dashboard's state as signals: who is signed in, the sessions, the live connection's
 * status, the error shown, and the route (path-based: `/` overview, `/sessions/<id>` one session).
 * @module
 */
import { signal } from '@preact/signals';
import type { SessionDetail } from '../protocol/sessions.js';
import type { LiveStatus } from './live.js';

export type Route = { view: 'overview' } | { view: 'session'; id: string } | { view: 'debug'; id: string }
  | { view: 'recordings'; name: string | null };

/** `unknown` until the first answer says whether the cookie works. */
export const auth = signal<'unknown' | 'signed-in' | 'signed-out'>('unknown');
export const sessions = signal<SessionDetail[] | null>(null);
export const sessionsError = signal<string | null>(null);
export const liveStatus = signal<LiveStatus>('connecting');
export const route = signal<Route>(routeOf(location.pathname));

export function routeOf(pathname: string): Route {
  const debug = /^\/sessions\/([A-Za-z0-9_-]{1,64})\/debug$/.exec(pathname);
  if (debug) return { view: 'debug', id: debug[1]! };
  const recordings = /^\/recordings(?:\/([A-Za-z0-9_-]{1,64}))?$/.exec(pathname);
  if (recordings) return { view: 'recordings', name: recordings[1] ?? null };
  const match = /^\/sessions\/([A-Za-z0-9_-]{1,64})$/.exec(pathname);
  return match ? { view: 'session', id: match[1]! } : { view: 'overview' };
}

/** Goes to `path` in the app (pushState) without a page load. */
export function navigate(path: string): void {
  history.pushState(null, '', path);
  route.value = routeOf(path);
}

addEventListener('popstate', () => { route.value = routeOf(location.pathname); });
