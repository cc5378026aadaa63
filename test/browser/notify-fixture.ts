/** Helpers of the notification tests (toasts, the page's system notifications). */
import { expect } from 'vitest';
import { E2E_WAIT_MS, waitFor, type DashboardE2e } from './e2e-harness.js';

/** Asks the session to "run the tests" and returns the approval that turn raises. */
export async function nextApproval(e: DashboardE2e, sessionId: string) {
  await e.client.call('sendMessage', { params: { id: sessionId }, body: { text: 'run the tests', wait: 'started', timeout_ms: E2E_WAIT_MS } });
  const pending = async () => (await e.client.call('listApprovals')).approvals.find((a) => a.session_id === sessionId);
  let found: Awaited<ReturnType<typeof pending>>;
  await expect.poll(async () => (found = await pending()), { timeout: E2E_WAIT_MS, interval: 100 }).toBeTruthy();
  return found!;
}

/**
 * Records the session's events (the daemon's SSE stream from the start) while the test runs, so
 * a test can wait for the daemon to have told an event before it looks for what the page made of
 * it, and a failure says which side missed it. Call `stop()` when done.
 */
export function recordEvents(e: DashboardE2e, sessionId: string) {
  const seen: { seq: number; type: string; at: number }[] = [];
  const abort = new AbortController();
  const reading = (async () => {
    for await (const event of e.client.events({ sessionId, since: 0, signal: abort.signal })) seen.push(event as (typeof seen)[number]);
  })().catch(() => {});
  return {
    /** The first `type` event told at or after `from` (epoch ms; the daemon runs on this machine's clock). */
    next(type: string, from: number) {
      return waitFor(() => seen.find((s) => s.type === type && s.at >= from), E2E_WAIT_MS,
        () => `the daemon to tell ${type} for ${sessionId}; it told: ${seen.map((s) => `${s.seq} ${s.type}`).join(', ')}`);
    },
    async stop() { abort.abort(); await reading; },
  };
}
