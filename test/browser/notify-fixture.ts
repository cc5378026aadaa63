/** Helpers of the notification tests (toasts, the page's system notifications). */
import { expect } from 'vitest';
import { E2E_WAIT_MS, type DashboardE2e } from './e2e-harness.js';

/** Asks the session to "run the tests" and returns the approval that turn raises. */
export async function nextApproval(e: DashboardE2e, sessionId: string) {
  await e.client.call('sendMessage', { params: { id: sessionId }, body: { text: 'run the tests', wait: 'started', timeout_ms: E2E_WAIT_MS } });
  const pending = async () => (await e.client.call('listApprovals')).approvals.find((a) => a.session_id === sessionId);
  let found: Awaited<ReturnType<typeof pending>>;
  await expect.poll(async () => (found = await pending()), { timeout: E2E_WAIT_MS, interval: 100 }).toBeTruthy();
  return found!;
}
