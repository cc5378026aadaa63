/**
 * Words shared by every place that tells a person a turn finished (push, desktop, dashboard).
 * Plain code, no schema: the dashboard's first bundle imports it.
 * @module
 */

/**
 * The words a finished turn's notification adds when the agent's own work still runs (the daemon
 * stopped waiting for it: docs/daemon.md), e.g. ", 1 background shell still running"; '' when none.
 */
export function describeStillRunning(state: { background?: { what: string } }): string {
  return state.background ? `, ${state.background.what} still running` : '';
}
