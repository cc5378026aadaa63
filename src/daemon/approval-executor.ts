/**
 * Carrying out a policy's decision on the live session, safely:
 * 1. decide (policy) and audit the decision; only `allow` goes on;
 * 2. claim the approval (one press per sighting, whoever presses: a person answering at the
 *    same moment gets it, or loses it, as a whole); released again when nothing was pressed;
 * 3. re-read the live modal right before the keypress; a different fingerprint (or no modal)
 *    means the screen moved on since the decision: abort without pressing;
 * 4. press once;
 * 5. verify the modal cleared within a bound; if it did not, report it. Never press again:
 *    a second press on a modal that did not react may land on whatever comes next.
 * Every step is audited. An audit that throws before the press stops the press: nothing is
 * answered that is not on record.
 *
 * @module
 */
import type { Scheduler } from '../core/clock.js';
import { modalFingerprint, type Approval, type ApprovalModal } from './approval.js';
import { decideApproval, type ApprovalPolicy, type PolicyButton, type PolicyDecision } from './approval-policy.js';

/** One audited step; `step` is stable for queries. */
export interface ApprovalAuditEntry {
  at: number;
  approvalId: string;
  sessionId: string;
  fingerprint: string;
  step: 'allow' | 'deny' | 'ask' | 'already-claimed' | 'aborted-stale' | 'pressed' | 'press-refused' | 'cleared' | 'not-cleared' | 'failed';
  reason: string;
  rule?: string;
  button?: PolicyButton;
}

/** What the executor needs from the session; each is a thin wrapper over the driver. */
export interface AnswerApprovalDeps {
  approval: Approval;
  policy: ApprovalPolicy | null;
  /** The modal on screen now (the same shape the tracker observed), or null when none is up. */
  readLiveModal: () => ApprovalModal | null | Promise<ApprovalModal | null>;
  /** Presses the button once (the driver's `click_modal_button` with index and label). */
  press: (button: PolicyButton) => { ok: true } | { ok: false; reason: string } | Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Resolves true when this approval's modal is gone within the caller's bound (see {@link waitUntilCleared}). */
  verifyCleared: (approval: Approval) => Promise<boolean>;
  audit: (entry: ApprovalAuditEntry) => void;
  now: () => number;
  /** Reserve / give back the approval for one press (`ApprovalTracker.claim` / `release`). */
  claim: (approvalId: string) => boolean;
  release: (approvalId: string) => void;
}

/** How an attempt ended. Only `cleared` means the approval was answered by the policy. */
export type AnswerOutcome = 'asked' | 'denied' | 'already-claimed' | 'aborted-stale' | 'press-refused' | 'cleared' | 'not-cleared' | 'failed';

export interface AnswerResult {
  outcome: AnswerOutcome;
  decision: PolicyDecision;
  reason: string;
}

/**
 * Runs the policy on one approval and, when it allows, presses its "yes" button once.
 *
 * @example
 * const result = await answerApproval({ approval, policy, readLiveModal, press, audit, now: () => Date.now(),
 *   verifyCleared: (a) => waitUntilCleared({ approval: a, readLiveModal, scheduler, timeoutMs: 3_000 }) });
 */
export async function answerApproval(deps: AnswerApprovalDeps): Promise<AnswerResult> {
  const { approval } = deps;
  const record = (step: ApprovalAuditEntry['step'], reason: string, extra: Pick<ApprovalAuditEntry, 'rule' | 'button'> = {}): void => {
    deps.audit({ at: deps.now(), approvalId: approval.id, sessionId: approval.sessionId, fingerprint: approval.fingerprint, step, reason, ...extra });
  };
  const decision = decideApproval(deps.policy, approval);
  if (decision.verdict !== 'allow') {
    record(decision.verdict, decision.reason, decision.verdict === 'deny' ? { rule: decision.rule } : {});
    return { outcome: decision.verdict === 'deny' ? 'denied' : 'asked', decision, reason: decision.reason };
  }
  record('allow', decision.reason, { rule: decision.rule, button: decision.button });
  const fail = (step: 'already-claimed' | 'aborted-stale' | 'press-refused' | 'not-cleared' | 'failed', reason: string): AnswerResult => {
    record(step, reason, { button: decision.button });
    return { outcome: step, decision, reason };
  };
  if (!deps.claim(approval.id)) return fail('already-claimed', 'another answer to this approval is under way or it is no longer open; nothing was pressed');
  const unpressed = (step: 'aborted-stale' | 'press-refused' | 'failed', reason: string): AnswerResult => {
    deps.release(approval.id);
    return fail(step, reason);
  };

  let live: ApprovalModal | null;
  try {
    live = await deps.readLiveModal();
  } catch (e) {
    return unpressed('failed', `could not re-read the screen before pressing (${(e as Error).message}); nothing was pressed`);
  }
  if (live === null) return unpressed('aborted-stale', 'the modal is gone; nothing was pressed');
  if (modalFingerprint(live) !== approval.fingerprint) return unpressed('aborted-stale', 'the modal on screen changed since the decision; nothing was pressed');

  let pressed: { ok: true } | { ok: false; reason: string };
  try {
    pressed = await deps.press(decision.button);
  } catch (e) {
    // The keys may have been written before the throw: keep the claim, a second press could land on the next modal.
    return fail('failed', `the press threw (${(e as Error).message}); not retried`);
  }
  if (!pressed.ok) return unpressed('press-refused', `the driver refused the press: ${pressed.reason}`);
  record('pressed', `pressed ${decision.button.index} "${decision.button.label}"`, { button: decision.button });

  let cleared: boolean;
  try {
    cleared = await deps.verifyCleared(approval);
  } catch (e) {
    return fail('failed', `could not verify the modal cleared (${(e as Error).message}); not retried`);
  }
  if (!cleared) return fail('not-cleared', 'the modal is still up after the press; not retried, a person must look');
  record('cleared', 'the modal cleared after the press', { button: decision.button });
  return { outcome: 'cleared', decision, reason: decision.reason };
}

/** Options for {@link waitUntilCleared}. */
export interface WaitUntilClearedOptions {
  approval: Pick<Approval, 'fingerprint'>;
  readLiveModal: () => ApprovalModal | null | Promise<ApprovalModal | null>;
  scheduler: Scheduler;
  /** Give up after this long. */
  timeoutMs: number;
  /** Re-read interval; the screen re-evaluates on output, 50 ms keeps the wait short and cheap. */
  pollMs?: number;
}

const DEFAULT_POLL_MS = 50;

/**
 * Polls the live modal until it is no longer this approval's (gone, or another question) or
 * `timeoutMs` passes. Timers go through `scheduler`, so tests run it in virtual time.
 */
export async function waitUntilCleared(options: WaitUntilClearedOptions): Promise<boolean> {
  const { approval, readLiveModal, scheduler, timeoutMs } = options;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const deadline = scheduler.now() + timeoutMs;
  const isCleared = async (): Promise<boolean> => {
    const live = await readLiveModal();
    return live === null || modalFingerprint(live) !== approval.fingerprint;
  };
  for (;;) {
    if (await isCleared()) return true;
    const left = deadline - scheduler.now();
    if (left <= 0) return false;
    await new Promise<void>((resolve) => scheduler.setTimeout(resolve, Math.min(pollMs, left)));
  }
}
