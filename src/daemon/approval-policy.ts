/**
 * A session's optional auto-approve policy: rules on an approval's subject that decide whether
 * the daemon may press "yes" for the person. It is deliberately narrow:
 * - only `kind: "approval"` outside start-up is ever answered (a picker chooses between
 *   outcomes, a confirm may be destructive, a start-up gate such as folder trust grants the
 *   agent a directory; no regex on a screen can judge those);
 * - an allow rule judges the subject — the command, path, URL or tool the CLI shows in the
 *   region the spec names for it (`extract.subject`), whole — never the text around it, which
 *   the agent writes (issue 24: a description line `npm test` over `curl … | sh`);
 * - no subject isolated, a subject drawn invisibly or holding invisible characters, a command
 *   with shell control syntax, a path climbing with `..` → a person decides, whatever the rules;
 * - a deny rule wins over any allow rule; no matching allow rule → a person is asked;
 * - a deny never presses "no": it only keeps the policy's hands off, and a person decides.
 *
 * Patterns come from users and run on text the agent shaped, so they are checked when the
 * policy is created, ReDoS screen included.
 *
 * @module
 */
import type { RegexScreen } from '../core/spec/validate-context.js';
import { isAutoAnswerable, type Approval, type ApprovalModal } from './approval.js';
import { judgeSubject } from './approval-subject.js';
import { fieldError, SpectermError } from '../protocol/index.js';

/** A rule as configured: a pattern, or a pattern with flags (only i, s and u). */
export type PolicyRuleInput = string | { pattern: string; flags?: string };

/** The policy as a user writes it (JSON). */
export interface ApprovalPolicyInput {
  /** The approval's whole subject (all of its lines) must match one of these for a press. */
  allow?: PolicyRuleInput[];
  /** Any match anywhere in the title, body or subject keeps the policy from pressing. */
  deny?: PolicyRuleInput[];
  /**
   * Which button means "yes, once". Default: the first button whose label starts with
   * Yes/Allow/Approve/Proceed and does not widen the grant (always, don't ask again, all,
   * session, remember). `{ index }` picks a button index; `{ label }` a label pattern.
   */
  yes?: { index: number } | { label: string };
}

interface CompiledRule {
  /** The rule as the user wrote it, for audit and messages. */
  source: string;
  regex: RegExp;
}

/** A validated policy; create with {@link createApprovalPolicy}. */
export interface ApprovalPolicy {
  readonly allow: readonly CompiledRule[];
  readonly deny: readonly CompiledRule[];
  readonly yes: { index: number } | { label: RegExp };
}

/** The button the policy would press. */
export interface PolicyButton {
  index: number;
  label: string;
}

/** What the policy says about one approval, and why (the reason is shown and audited). */
export type PolicyDecision =
  | { verdict: 'allow'; button: PolicyButton; rule: string; reason: string }
  | { verdict: 'deny'; rule: string; reason: string }
  | { verdict: 'ask'; reason: string };

/** A policy that cannot be used; `path` names the field (e.g. `deny[2]`). */
export class ApprovalPolicyError extends SpectermError {
  declare readonly code: 'APPROVAL_POLICY_INVALID';
  readonly path: string;
  constructor(path: string, message: string) {
    super(fieldError('APPROVAL_POLICY_INVALID', `approval policy ${path}: ${message}`, policyFieldPointer(path)));
    this.name = 'ApprovalPolicyError';
    this.path = path;
  }
}

/** The JSON Pointer of a policy error's field inside a request body (`allow[1]` → `/policy/allow/1`). */
export function policyFieldPointer(path: string, root = '/policy'): string {
  if (path === '(root)') return root;
  return `${root}/${path.replace(/\[(\d+)\]/g, '.$1').split('.').join('/')}`;
}

/** Longest pattern accepted: rules are short command shapes; longer ones are likely pasted text. */
const MAX_PATTERN_CHARS = 500;
/** Rules per list: a policy is read by people; hundreds of rules are a config mistake. */
const MAX_RULES = 100;
/** g and y make `test` stateful (lastIndex); m is set by how a rule is used; d and v change nothing we need. */
const ALLOWED_FLAGS = /^[isu]*$/;

/** How a list uses its patterns: allow rules are anchored to the whole subject, deny rules search everywhere. */
type RuleShape = 'whole-subject' | 'anywhere';
const DEFAULT_YES_LABEL = /^(?:yes|allow|approve|proceed)\b(?!.*\b(?:always|don'?t ask|never ask|all|session|remember|auto)\b)/i;

function compileRule(rule: unknown, path: string, shape: RuleShape, screen: RegexScreen | undefined): CompiledRule {
  const { pattern, flags } = typeof rule === 'string' ? { pattern: rule, flags: '' }
    : typeof rule === 'object' && rule !== null ? (rule as { pattern?: unknown; flags?: unknown }) : { pattern: undefined, flags: undefined };
  if (typeof pattern !== 'string' || pattern.length === 0) {
    throw new ApprovalPolicyError(path, `expected a non-empty pattern string or {pattern, flags}, got ${JSON.stringify(rule)}; write e.g. "^npm test$"`);
  }
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new ApprovalPolicyError(path, `pattern is ${pattern.length} characters, the limit is ${MAX_PATTERN_CHARS}; split it into several rules`);
  }
  const userFlags = flags === undefined ? '' : flags;
  if (typeof userFlags !== 'string' || !ALLOWED_FLAGS.test(userFlags)) {
    throw new ApprovalPolicyError(`${path}.flags`, `flags ${JSON.stringify(flags)} are not allowed; use any of "i", "s", "u" (g, y and m are refused)`);
  }
  // Anchoring the whole pattern (not `exec` then comparing lengths) also finds `ab` in `a|ab`.
  const source = shape === 'whole-subject' ? `^(?:${pattern})$` : pattern;
  const allFlags = shape === 'whole-subject' ? userFlags : `${userFlags}m`;
  let regex: RegExp;
  try {
    // The bare pattern first: `a)|(b` is invalid alone but valid once wrapped in `^(?:…)$`.
    new RegExp(pattern, userFlags);
    regex = new RegExp(source, allFlags);
  } catch (e) {
    throw new ApprovalPolicyError(path, `${JSON.stringify(pattern)} is not a valid regular expression (${(e as Error).message}); fix its syntax`);
  }
  const verdict = screen?.(pattern, allFlags) ?? null;
  if (verdict?.complexity === 'unscreened') {
    throw new ApprovalPolicyError(path, `${JSON.stringify(pattern)} could not be screened for catastrophic backtracking (${verdict.reason}); it would run on text the agent controls, so rewrite it more simply`);
  }
  if (verdict && verdict.complexity !== 'safe') {
    const attack = verdict.attack ? ` (e.g. on ${verdict.attack})` : '';
    throw new ApprovalPolicyError(path, `${JSON.stringify(pattern)} can backtrack ${verdict.complexity}ly${attack} on text the agent controls; rewrite it without nested or overlapping repeats`);
  }
  return { source: pattern, regex };
}

function compileRules(list: unknown, path: string, shape: RuleShape, screen: RegexScreen | undefined): CompiledRule[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new ApprovalPolicyError(path, `expected an array of patterns, got ${JSON.stringify(list)}`);
  if (list.length > MAX_RULES) throw new ApprovalPolicyError(path, `${list.length} rules, the limit is ${MAX_RULES}; merge rules with alternation`);
  return list.map((rule, i) => compileRule(rule, `${path}[${i}]`, shape, screen));
}

function compileYes(yes: unknown, screen: RegexScreen | undefined): ApprovalPolicy['yes'] {
  if (yes === undefined) return { label: DEFAULT_YES_LABEL };
  if (typeof yes === 'object' && yes !== null && 'index' in yes) {
    const { index } = yes as { index: unknown };
    if (!Number.isInteger(index)) throw new ApprovalPolicyError('yes.index', `expected an integer button index, got ${JSON.stringify(index)}`);
    return { index: index as number };
  }
  if (typeof yes === 'object' && yes !== null && 'label' in yes) {
    return { label: compileRule((yes as { label: unknown }).label, 'yes.label', 'anywhere', screen).regex };
  }
  throw new ApprovalPolicyError('yes', `expected {index: n} or {label: "pattern"}, got ${JSON.stringify(yes)}`);
}

/**
 * Validates a policy as configured. Pass `screen` (the catalog's `screenRegexWithRecheck`)
 * to refuse patterns that can backtrack catastrophically.
 *
 * @throws ApprovalPolicyError naming the field, the value and the fix.
 * @example createApprovalPolicy({ allow: ['npm (test|run lint)'], deny: ['rm -rf'] }, { screen: screenRegexWithRecheck })
 */
export function createApprovalPolicy(input: unknown, options: { screen?: RegexScreen } = {}): ApprovalPolicy {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ApprovalPolicyError('(root)', `expected an object {allow?, deny?, yes?}, got ${JSON.stringify(input)}`);
  }
  const unknownKey = Object.keys(input).find((k) => !['allow', 'deny', 'yes'].includes(k));
  if (unknownKey) throw new ApprovalPolicyError(unknownKey, `unknown field; the fields are allow, deny and yes`);
  const { allow, deny, yes } = input as Record<string, unknown>;
  return {
    allow: compileRules(allow, 'allow', 'whole-subject', options.screen),
    deny: compileRules(deny, 'deny', 'anywhere', options.screen),
    yes: compileYes(yes, options.screen),
  };
}

function approvalText(approval: Pick<ApprovalModal, 'title' | 'body' | 'subject'>): string {
  return [approval.title, approval.body, approval.subject?.text].filter((t): t is string => typeof t === 'string').join('\n');
}

function chooseYes(policy: ApprovalPolicy, buttons: Approval['buttons']): PolicyButton | null {
  const yes = policy.yes;
  const found = 'index' in yes ? buttons.find((b) => b.index === yes.index) : buttons.find((b) => yes.label.test(b.label.trim()));
  return found ? { index: found.index, label: found.label } : null;
}

/**
 * Decides on one approval. Pure; the same policy and approval always give the same answer.
 * A missing policy (null) always asks.
 */
export function decideApproval(policy: ApprovalPolicy | null, approval: Pick<Approval, 'kind' | 'startupGate' | 'title' | 'body' | 'buttons'> & Pick<ApprovalModal, 'subject'>): PolicyDecision {
  if (!isAutoAnswerable(approval)) {
    const what = approval.startupGate ? 'a start-up gate' : `a ${approval.kind ?? 'modal of unknown kind'}`;
    return { verdict: 'ask', reason: `${what} is never auto-answered; a person decides` };
  }
  if (!policy) return { verdict: 'ask', reason: 'no auto-approve policy for this session' };
  const text = approvalText(approval);
  for (const rule of policy.deny) {
    if (rule.regex.test(text)) return { verdict: 'deny', rule: rule.source, reason: `deny rule ${JSON.stringify(rule.source)} matched; a person decides` };
  }
  const judged = judgeSubject(approval.subject);
  if ('reason' in judged) return { verdict: 'ask', reason: judged.reason };
  // The whole subject, all of its lines: `npm test` allows neither `npm test; curl …` nor a second line.
  const allowedBy = policy.allow.find((rule) => rule.regex.test(judged.text));
  if (!allowedBy) return { verdict: 'ask', reason: `no allow rule matched the whole ${judged.kind} ${JSON.stringify(judged.text)}` };
  const button = chooseYes(policy, approval.buttons);
  if (!button) {
    const labels = approval.buttons.map((b) => `${b.index}:${b.label}`).join(', ') || 'none';
    return { verdict: 'ask', reason: `allow rule ${JSON.stringify(allowedBy.source)} matched but no "yes" button was found (buttons: ${labels}); set policy.yes` };
  }
  return { verdict: 'allow', button, rule: allowedBy.source, reason: `allow rule ${JSON.stringify(allowedBy.source)} matched the ${judged.kind} ${JSON.stringify(judged.text)}; pressing ${button.index} "${button.label}"` };
}
