/**
 * Work a deep link to a session can start before the app knows it is signed in: the session
 * view's chunk (xterm inside) and the session's detail are fetched at page load, in parallel
 * with the sign-in check, instead of one after the other once the shell has rendered (the chain
 * was list → chunk → detail → subscribe; issue 16's open-to-first-paint target). A signed-out
 * page only wasted one 401; the view still loads everything itself when nothing was preloaded.
 * @module
 */
import type { SessionDetail } from '../protocol/sessions.js';
import { call } from './api-client.js';

/** The one import of the session view, shared by `lazy()` and the preload. */
export const loadSessionView = () => import('./session-view.js');

const details = new Map<string, Promise<SessionDetail>>();

/** Starts what opening `route` will need. Called once, at page load. */
export function preloadRoute(route: { view: string; id?: string }): void {
  if (route.view !== 'session' || route.id === undefined) return;
  void loadSessionView().catch(() => undefined);
  const id = route.id;
  const detail = call('getSession', { params: { id } });
  details.set(id, detail);
  // A refusal (signed out: 401) is not kept for later: the view asks again once signed in.
  detail.catch(() => { if (details.get(id) === detail) details.delete(id); });
}

/** The preloaded detail of `id`, once: later loads ask the daemon again (it may have changed). */
export function takePreloadedSession(id: string): Promise<SessionDetail> | undefined {
  const detail = details.get(id);
  details.delete(id);
  return detail;
}
