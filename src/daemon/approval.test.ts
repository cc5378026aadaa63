import { describe, expect, it } from 'vitest';
import { ApprovalError, ApprovalTracker, modalFingerprint, type ApprovalModal } from './approval.js';

const runTests: ApprovalModal = {
  kind: 'approval',
  title: 'Bash command',
  body: 'npm test\nRun the test suite',
  buttons: [{ index: 1, label: 'Yes' }, { index: 2, label: "Yes, and don't ask again" }, { index: 3, label: 'No' }],
};

describe('modalFingerprint', () => {
  it('is 64 hex digits and ignores trailing blanks of a repaint', () => {
    const fp = modalFingerprint(runTests);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    expect(modalFingerprint({ ...runTests, body: 'npm test   \nRun the test suite\n\n' })).toBe(fp);
  });

  it('changes with each part of the question', () => {
    const fp = modalFingerprint(runTests);
    expect(modalFingerprint({ ...runTests, body: 'rm -rf /' })).not.toBe(fp);
    expect(modalFingerprint({ ...runTests, title: 'Edit file' })).not.toBe(fp);
    expect(modalFingerprint({ ...runTests, kind: 'confirm' })).not.toBe(fp);
    expect(modalFingerprint({ ...runTests, buttons: [{ index: 1, label: 'Yes' }] })).not.toBe(fp);
    expect(modalFingerprint({ ...runTests, buttons: runTests.buttons.map((b) => ({ ...b, index: b.index + 1 })) })).not.toBe(fp);
  });

  it('stays the same while the cursor moves between options, numbered or not', () => {
    const at = (row: number) => ['npm test', ...runTests.buttons.map((b, i) => `${i === row ? '❯' : ' '} ${b.index}. ${b.label}`)].join('\n');
    const fp = modalFingerprint({ ...runTests, body: at(0) });
    expect(modalFingerprint({ ...runTests, body: at(2) })).toBe(fp);
    expect(modalFingerprint({ ...runTests, body: at(2).replace('❯', '›') })).toBe(fp);
    const trust = { kind: 'confirm' as const, title: 'Trust?', buttons: [{ index: 1, label: 'Yes, proceed' }, { index: 2, label: 'No, exit' }] };
    expect(modalFingerprint({ ...trust, body: 'Trust this folder?\n❯ Yes, proceed\n  No, exit' }))
      .toBe(modalFingerprint({ ...trust, body: 'Trust this folder?\n  Yes, proceed\n❯ No, exit' }));
    // A marker on a line that is no option is content: a quoted prompt in the question.
    expect(modalFingerprint({ ...runTests, body: '> npm test' })).not.toBe(modalFingerprint({ ...runTests, body: '  npm test' }));
  });

  it('does not confuse a field boundary with content', () => {
    const a = modalFingerprint({ kind: 'approval', title: 'a', body: 'b', buttons: [] });
    const b = modalFingerprint({ kind: 'approval', title: 'ab', body: '', buttons: [] });
    const c = modalFingerprint({ kind: 'approval', title: null, body: 'ab', buttons: [] });
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('refuses a malformed modal with the field named', () => {
    expect(() => modalFingerprint({ ...runTests, body: 3 as unknown as string })).toThrow(/body must be a string/);
    expect(() => modalFingerprint({ ...runTests, buttons: [{ index: 1.5, label: 'x' }] })).toThrow(/buttons\[0\]/);
  });
});

describe('ApprovalTracker', () => {
  it('keeps one id while the same modal is re-observed', () => {
    const tracker = new ApprovalTracker();
    const first = tracker.observe('s1', runTests, 1_000);
    expect(first.opened).toBeDefined();
    expect(first.opened!.id).toBe(`s1.1.${first.opened!.fingerprint.slice(0, 12)}`);
    expect(first.opened!.firstSeenAt).toBe(1_000);
    const again = tracker.observe('s1', { ...runTests, body: `${runTests.body}  ` }, 2_000);
    expect(again.opened).toBeUndefined();
    expect(again.closed).toBeUndefined();
    expect(again.current!.id).toBe(first.opened!.id);
    expect(again.current!.firstSeenAt).toBe(1_000);
  });

  it('gives a changed body a new id and fingerprint, closing the old one', () => {
    const tracker = new ApprovalTracker();
    const first = tracker.observe('s1', runTests, 1_000).opened!;
    const changed = tracker.observe('s1', { ...runTests, body: 'npm run lint' }, 1_500);
    expect(changed.closed!.id).toBe(first.id);
    expect(changed.opened!.id).not.toBe(first.id);
    expect(changed.opened!.fingerprint).not.toBe(first.fingerprint);
    expect(tracker.current('s1')!.id).toBe(changed.opened!.id);
  });

  it('gives a modal that goes and comes back a new id: it is a new question', () => {
    const tracker = new ApprovalTracker();
    const first = tracker.observe('s1', runTests, 1_000).opened!;
    expect(tracker.observe('s1', null, 1_100)).toEqual({ closed: first, current: null });
    expect(tracker.observe('s1', null, 1_200)).toEqual({ current: null });
    const back = tracker.observe('s1', runTests, 1_300).opened!;
    expect(back.fingerprint).toBe(first.fingerprint);
    expect(back.id).not.toBe(first.id);
    expect(back.firstSeenAt).toBe(1_300);
  });

  it('tracks pickers, confirms and start-up gates but flags them as needing a person', () => {
    const tracker = new ApprovalTracker();
    const picker = tracker.observe('s1', { ...runTests, kind: 'picker' }, 1).opened!;
    const confirm = tracker.observe('s2', { ...runTests, kind: 'confirm' }, 2).opened!;
    const trust = tracker.observe('s3', { ...runTests, title: 'Do you trust this folder?', startupGate: true }, 3).opened!;
    const unknown = tracker.observe('s4', { ...runTests, kind: null }, 4).opened!;
    const approval = tracker.observe('s5', runTests, 5).opened!;
    expect([picker, confirm, trust, unknown].map((a) => a.needsPerson)).toEqual([true, true, true, true]);
    expect(approval.needsPerson).toBe(false);
    expect(tracker.pending().map((a) => a.sessionId)).toEqual(['s1', 's2', 's3', 's4', 's5']);
  });

  it('keeps sessions apart and finds approvals by id', () => {
    const tracker = new ApprovalTracker({ firstSeq: 41 });
    const a = tracker.observe('a', runTests, 1).opened!;
    const b = tracker.observe('b', runTests, 2).opened!;
    expect(a.id).toMatch(/^a\.41\./);
    expect(b.id).toMatch(/^b\.42\./);
    expect(tracker.find(b.id)).toBe(b);
    expect(tracker.forget('a')).toBe(a);
    expect(tracker.find(a.id)).toBeNull();
    expect(tracker.nextSeq).toBe(43);
  });

  it('lets one answerer claim an open approval; a closed or replaced one cannot be claimed', () => {
    const tracker = new ApprovalTracker();
    const first = tracker.observe('s1', runTests, 1).opened!;
    expect(tracker.claim(first.id)).toBe(true);
    expect(tracker.claim(first.id)).toBe(false);
    tracker.release(first.id);
    expect(tracker.claim(first.id)).toBe(true);
    const second = tracker.observe('s1', { ...runTests, body: 'npm run lint' }, 2).opened!;
    expect(tracker.claim(first.id)).toBe(false);
    expect(tracker.claim(second.id)).toBe(true);
    tracker.observe('s1', null, 3);
    expect(tracker.claim(second.id)).toBe(false);
    expect(tracker.claim('nope.1.000000000000')).toBe(false);
  });

  it('refuses bad arguments with stable codes', () => {
    const tracker = new ApprovalTracker();
    const codeOf = (fn: () => unknown) => {
      try { fn(); } catch (e) { return (e as ApprovalError).code; }
      return 'no error';
    };
    expect(codeOf(() => tracker.observe('a/b', runTests, 1))).toBe('APPROVAL_BAD_SESSION_ID');
    expect(codeOf(() => tracker.observe('a', runTests, Number.NaN))).toBe('APPROVAL_BAD_TIME');
    expect(codeOf(() => new ApprovalTracker({ firstSeq: 0 }))).toBe('APPROVAL_BAD_OPTION');
  });
});
