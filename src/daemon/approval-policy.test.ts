import { describe, expect, it } from 'vitest';
import { screenRegexWithRecheck } from '../catalog/redos.js';
import { ApprovalPolicyError, createApprovalPolicy, decideApproval } from './approval-policy.js';
import type { Approval } from './approval.js';

const BUTTONS = [{ index: 1, label: 'Yes' }, { index: 2, label: "Yes, and don't ask again for npm commands" }, { index: 3, label: 'No, and tell Claude what to do differently' }];
const ask = (body: string, extra: Partial<Approval> = {}) => ({ kind: 'approval' as const, startupGate: false, title: 'Bash command', body, buttons: BUTTONS, ...extra });
const policy = createApprovalPolicy({ allow: ['npm (test|run lint)'], deny: ['rm -rf'] });

function policyError(input: unknown, screen = screenRegexWithRecheck): ApprovalPolicyError {
  try {
    createApprovalPolicy(input, { screen });
  } catch (e) {
    return e as ApprovalPolicyError;
  }
  throw new Error('expected the policy to be refused');
}

describe('decideApproval', () => {
  it('allows a whole line matched by an allow rule, pressing the plain Yes', () => {
    const d = decideApproval(policy, ask('  npm test  \nRun the tests'));
    expect(d).toMatchObject({ verdict: 'allow', rule: 'npm (test|run lint)', button: { index: 1, label: 'Yes' } });
  });

  it('lets deny win over allow', () => {
    const d = decideApproval(policy, ask('npm test\nrm -rf build'));
    expect(d).toMatchObject({ verdict: 'deny', rule: 'rm -rf' });
  });

  it('asks a person when no rule matches, when there is no policy, and for a line that only starts like an allowed one', () => {
    expect(decideApproval(policy, ask('cargo build')).verdict).toBe('ask');
    expect(decideApproval(null, ask('npm test')).verdict).toBe('ask');
    expect(decideApproval(policy, ask('npm test; curl x | sh')).verdict).toBe('ask');
    expect(decideApproval(createApprovalPolicy({}), ask('npm test')).verdict).toBe('ask');
  });

  it('anchors the whole alternation, so `a|ab` allows `ab`', () => {
    expect(decideApproval(createApprovalPolicy({ allow: ['npm|npm test'] }), ask('npm test')).verdict).toBe('allow');
  });

  it('never answers pickers, confirms, unknown kinds or start-up gates, even with allow .*', () => {
    const everything = createApprovalPolicy({ allow: ['.*'] });
    for (const extra of [{ kind: 'picker' as const }, { kind: 'confirm' as const }, { kind: null }, { startupGate: true }]) {
      const d = decideApproval(everything, ask('npm test', extra));
      expect(d.verdict).toBe('ask');
      expect(d.reason).toMatch(/never auto-answered/);
    }
  });

  it('asks when no yes button can be found, naming the buttons', () => {
    const d = decideApproval(policy, ask('npm test', { buttons: [{ index: 1, label: "Yes, don't ask again" }, { index: 2, label: 'No' }] }));
    expect(d.verdict).toBe('ask');
    expect(d.reason).toMatch(/1:Yes, don't ask again, 2:No/);
  });

  it('chooses the yes button by configured index or label', () => {
    expect(decideApproval(createApprovalPolicy({ allow: ['npm test'], yes: { index: 2 } }), ask('npm test'))).toMatchObject({ button: { index: 2 } });
    const byLabel = createApprovalPolicy({ allow: ['npm test'], yes: { label: '^Yes, and' } });
    expect(decideApproval(byLabel, ask('npm test'))).toMatchObject({ button: { index: 2 } });
    expect(decideApproval(createApprovalPolicy({ allow: ['npm test'], yes: { index: 9 } }), ask('npm test')).verdict).toBe('ask');
  });

  it('applies flags from an object rule', () => {
    const p = createApprovalPolicy({ allow: [{ pattern: 'NPM TEST', flags: 'i' }], deny: [{ pattern: 'SUDO', flags: 'i' }] });
    expect(decideApproval(p, ask('npm test')).verdict).toBe('allow');
    expect(decideApproval(p, ask('npm test\nsudo ls')).verdict).toBe('deny');
  });
});

describe('createApprovalPolicy', () => {
  it('refuses a bad regex naming the path and the value', () => {
    const e = policyError({ deny: ['ok', '(unclosed'] });
    expect(e.code).toBe('APPROVAL_POLICY_INVALID');
    expect(e.path).toBe('deny[1]');
    expect(e.message).toMatch(/"\(unclosed" is not a valid regular expression/);
  });

  it('refuses a pattern that breaks out of the whole-line anchor', () => {
    expect(policyError({ allow: ['x)|(.*'] }).path).toBe('allow[0]');
  });

  it('refuses a ReDoS-prone pattern when a screen is given', () => {
    const e = policyError({ allow: ['(a+)+$'] });
    expect(e.path).toBe('allow[0]');
    expect(e.message).toMatch(/exponential/);
  });

  it('refuses stateful flags, wrong shapes and unknown fields', () => {
    expect(policyError({ allow: [{ pattern: 'x', flags: 'g' }] }).path).toBe('allow[0].flags');
    expect(policyError({ allow: 'npm test' }).path).toBe('allow');
    expect(policyError({ allow: [''] }).path).toBe('allow[0]');
    expect(policyError({ alow: [] }).path).toBe('alow');
    expect(policyError({ yes: { index: 'one' } }).path).toBe('yes.index');
    expect(policyError(null).path).toBe('(root)');
    expect(policyError({ deny: ['x'.repeat(501)] }).message).toMatch(/limit is 500/);
  });
});
