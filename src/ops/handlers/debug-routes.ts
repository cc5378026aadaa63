/**
 * The live spec debugger's operations (`…/debug/live`, `…/graph`, `…/debug/moments`), over the
 * views in src/daemon/debug-views.ts.
 *
 * @module
 */
import type { DebugMoments } from '../../protocol/index.js';
import type { RouteHandlers } from '../contracts.js';
import { liveDebugOf, specGraphOf, TransitionScreens } from '../../daemon/debug-views.js';
import type { EventLog } from '../../daemon/event-log.js';
import type { SessionManager } from '../../daemon/session-manager.js';
import { runningDriver } from './session-routes.js';

export interface DebugRouteDeps {
  manager: SessionManager;
  events: EventLog;
  now: () => number;
}

/** The debug handlers, and `close()` to stop watching state changes. */
export function debugRoutes(d: DebugRouteDeps): { handlers: RouteHandlers; close(): void } {
  const screens = new TransitionScreens();
  const unsubscribe = d.events.subscribe((event) => {
    if (event.type === 'session.removed') return screens.forget(event.session_id);
    if (event.type !== 'session.state') return;
    try {
      const driver = d.manager.get(event.session_id).driver;
      if (driver) screens.capture(event.session_id, driver.getFsmSnapshotHistory().at(-1)?.at ?? event.at, driver.snapshot().split('\n'));
    } catch {
      // The session went away between the event and this read: nothing to keep.
    }
  });
  const handlers: RouteHandlers = {
    getLiveDebug: (input) => liveDebugOf(runningDriver(d.manager.get(input.params.id)), d.now()),
    getSpecGraph: (input) => {
      const session = d.manager.get(input.params.id);
      return specGraphOf(session.driver?.getSpec() ?? session.spec);
    },
    getDebugMoments: (input): DebugMoments => {
      const driver = runningDriver(d.manager.get(input.params.id));
      return {
        history: driver.getStateHistory().map((h) => ({ state: h.stateId, label: h.label, at: h.at, duration_ms: Math.max(0, h.durationMs), via: h.via ?? null })),
        snapshots: driver.getFsmSnapshotHistory().map((s) => ({
          at: s.at, from: s.stateFrom, to: s.stateTo, label: s.firedLabel, reason: s.reason, screen: screens.at(input.params.id, s.at),
        })),
      };
    },
  };
  return { handlers, close: unsubscribe };
}
