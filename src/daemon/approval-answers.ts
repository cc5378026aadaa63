/**
 * Answering approvals: a person's answer through the API (`POST /api/v1/approvals/:id`), and the
 * per-session auto-approve policy run on every newly opened approval. Both claim the approval
 * (one press per sighting), re-read the live modal right before pressing, press once, check the
 * modal cleared, store the answer and emit `approval.answered`.
 *
 * @module
 */
import { modalFingerprint, type Approval, type ApprovalTracker } from './approval.js';
import { answerApproval, waitUntilCleared, type ApprovalAuditEntry } from './approval-executor.js';
import { RealScheduler } from '../driver/schedulers.js';
import type { Store } from '../store/index.js';
import { DaemonError } from './errors.js';
import { checkAgentAnswer, lineageOf, type OrchestrationSettings } from './orchestration.js';
import type { EventLog } from './event-log.js';
import { wireApprovalId, type ManagedSession } from './managed-session.js';
import type { SessionManager } from './session-manager.js';

/** How long a press may take to clear the modal before it is reported as still shown. */
const CLEAR_TIMEOUT_MS = 5000;

export interface ApprovalAnswersDeps {
  manager: () => SessionManager;
  tracker: ApprovalTracker;
  store: Store;
  events: EventLog;
  now: () => number;
  log?: (level: 'info' | 'warn', message: string) => void;
  /** settings.json `orchestration.parent_answers`: where a parent agent may answer its child's prompts. */
  parentAnswers?: OrchestrationSettings['parent_answers'];
}

export interface PersonAnswer { button: number | string; fingerprint: string }
export interface PersonAnswerResult { approval_id: string; button: { index: number; label: string }; result: 'cleared' | 'still_shown' }

export class ApprovalAnswers {
  readonly #d: ApprovalAnswersDeps;
  readonly #scheduler = new RealScheduler();

  constructor(deps: ApprovalAnswersDeps) {
    this.#d = deps;
  }

  /** Every open approval, oldest first. */
  pending(): Approval[] {
    return this.#d.tracker.pending();
  }

  /** Finds an open approval by its wire id, or says why not (409 with the current modal, 404). */
  #find(wireId: string): { approval: Approval; session: ManagedSession } {
    const manager = this.#d.manager();
    for (const approval of this.#d.tracker.pending()) {
      if (wireApprovalId(approval) === wireId) return { approval, session: manager.get(approval.sessionId) };
    }
    const owner = manager.list().find((s) => wireId.startsWith(`${s.id}-`));
    if (owner) {
      throw new DaemonError('APPROVAL_STALE', `approval ${wireId} is no longer on screen; answer the current one (in "current"), if any`, { extensions: { current: owner.modalView() } });
    }
    throw new DaemonError('APPROVAL_NOT_FOUND', `no approval has id ${JSON.stringify(wireId)}; it may have been answered or closed; \`specterm approve --list\` (or the dashboard's inbox) lists the pending ones`, { path: '/id' });
  }

  /**
   * A person's answer — or an agent's, when `callerSession` names the agent session the call is
   * made for: then only a prompt of its own child, where the settings name the pair (./orchestration.ts).
   */
  async answer(wireId: string, input: PersonAnswer, who: string, callerSession?: string): Promise<PersonAnswerResult> {
    const { approval, session } = this.#find(wireId);
    if (callerSession !== undefined) this.#checkAgent(callerSession, session, approval.kind ?? 'approval');
    const stale = (why: string) => new DaemonError('APPROVAL_STALE', `${why}; look again and answer the current modal (in "current")`, { extensions: { current: session.modalView() } });
    if (input.fingerprint !== approval.fingerprint) throw stale('the fingerprint does not match the modal on screen');
    const button = typeof input.button === 'number'
      ? approval.buttons.find((b) => b.index === input.button)
      : approval.buttons.find((b) => b.label === input.button);
    if (!button) {
      throw new DaemonError('APPROVAL_BUTTON_UNKNOWN', `the modal has no button ${JSON.stringify(input.button)}; its buttons are ${approval.buttons.map((b) => `${b.index} "${b.label}"`).join(', ')}`, { path: '/button' });
    }
    if (!this.#d.tracker.claim(approval.id)) throw new DaemonError('APPROVAL_CLAIMED', 'another answer to this approval is under way; nothing was pressed');
    const live = session.liveModal();
    if (!live || modalFingerprint(live) !== approval.fingerprint) {
      this.#d.tracker.release(approval.id);
      throw stale('the modal changed right before the press; nothing was pressed');
    }
    const pressed = session.driver!.dispatch({ kind: 'click_modal_button', index: button.index, label: button.label });
    // A person's answer (never the policy's): the next step of a picker it opens is theirs.
    if (pressed.ok) session.notePersonInput();
    if (!pressed.ok) {
      this.#d.tracker.release(approval.id);
      throw new DaemonError('COMMAND_REFUSED', `the driver refused the press: ${pressed.code}: ${pressed.reason}`);
    }
    const cleared = await this.#waitCleared(session, approval);
    this.#recordAnswer(approval, who, button.label, cleared ? 'cleared' : 'still_shown');
    return { approval_id: wireId, button, result: cleared ? 'cleared' : 'still_shown' };
  }

  #checkAgent(callerSession: string, session: ManagedSession, kind: string): void {
    const manager = this.#d.manager();
    let caller: ManagedSession;
    try {
      caller = manager.get(callerSession);
    } catch {
      throw new DaemonError('CALLER_INVALID', `the calling session ${JSON.stringify(callerSession)} is not one of this daemon's sessions; an agent's MCP server names its own (SPECTERM_SESSION_ID)`);
    }
    checkAgentAnswer(lineageOf(caller), lineageOf(session), kind, manager.lineage(), { parent_answers: this.#d.parentAnswers ?? [] });
  }

  #waitCleared(session: ManagedSession, approval: Approval): Promise<boolean> {
    return waitUntilCleared({ approval, readLiveModal: () => session.liveModal(), scheduler: this.#scheduler, timeoutMs: CLEAR_TIMEOUT_MS });
  }

  #recordAnswer(approval: Approval, who: string, label: string, result: string): void {
    const now = this.#d.now();
    this.#d.store.approvals.recordAnswer(approval.id, { answeredBy: who, answeredAt: now, button: label, result });
    this.#d.events.append({ type: 'approval.answered', session_id: approval.sessionId, at: now, approval_id: wireApprovalId(approval), button: label, by: who });
  }

  /** Runs the session's policy on a newly opened approval (only `approval` kinds are ever pressed). */
  autoAnswer(session: ManagedSession, approval: Approval): void {
    if (!session.policy) return;
    const audit = (entry: ApprovalAuditEntry) => this.#d.store.audit.insert({
      t: entry.at, who: 'policy', action: `approval.${entry.step}`, sessionId: entry.sessionId,
      detail: { approvalId: entry.approvalId, fingerprint: entry.fingerprint, rule: entry.rule, button: entry.button }, outcome: entry.step, reason: entry.reason,
    });
    void answerApproval({
      approval, policy: session.policy, audit, now: this.#d.now,
      readLiveModal: () => session.liveModal(),
      press: (button) => {
        const r = session.driver?.dispatch({ kind: 'click_modal_button', index: button.index, label: button.label });
        return r?.ok ? { ok: true } : { ok: false, reason: r ? `${r.code}: ${r.reason}` : 'the agent is not running' };
      },
      verifyCleared: (a) => this.#waitCleared(session, a),
      claim: (id) => this.#d.tracker.claim(id),
      release: (id) => this.#d.tracker.release(id),
    }).then((result) => {
      if (result.outcome === 'cleared' && result.decision.verdict === 'allow') this.#recordAnswer(approval, 'policy', result.decision.button.label, 'cleared');
    }, (error: unknown) => this.#d.log?.('warn', `auto-approve of ${approval.id} failed: ${(error as Error).message}`));
  }
}
