/**
 * Issue 29 item 3: auto-answering is only for consent to an agent's action (kind `approval`).
 * A question that lets code run or widens what the agent may do — trusting a folder (its
 * configuration can run code), granting full access, bypassing permissions, installing an
 * extension or plugin — is a person's decision (`confirm`), wherever it appears: at start-up or
 * later from a command (/trust, /permissions, /extensions install …). Every built-in spec's
 * recordings are replayed through the real driver in virtual time; no modal on a screen that asks
 * one of those questions may be reported as `approval`, so a spec edit cannot regress it.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import { createApprovalPolicy, decideApproval } from '../src/daemon/approval-policy.js';
import { discoverSpecTests, type SpecTestCase } from '../src/harness/spec-test.js';
import { DEFAULT_TAIL_MS, replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';
import { approvalScreen, readApproval, type ApprovalScreen } from './helpers/approval-screens.js';

/**
 * The words of those questions as the built-in CLIs put them: Claude Code's folder trust
 * ("Accessing workspace: … trust this folder") and its Bypass Permissions warning, Codex's
 * "Trust this folder?" and "Enable full access?", Gemini's and Qwen's "Do you trust …" and
 * /trust's "Modify Trust Level", Qwen's "Installing extension …", Kilo Code's "Run outside the
 * sandbox" (every restriction lifted; Kilo itself lets no allow rule answer it).
 */
const WIDENING_QUESTION = /\btrust (?:this|the|parent) (?:folder|directory|files|workspace)|\bdo you trust\b|\btrust level\b|\benable full access\b|\bbypass permissions\b|\brun outside the sandbox\b|\binstall(?:ing)? (?:the )?(?:extension|plugin)\b|\ballow this folder\b/i;
/** How often the replay is sampled (virtual ms): every modal stands far longer than this. */
const STEP_MS = 50;

interface WideningModal {
  state: string;
  title: string | null;
  kind: string | null;
  buttons: Array<{ index: number; label: string }>;
  screen: string;
}

/** Every distinct modal of the recording shown on a screen that asks a widening question. */
function wideningModals(c: SpecTestCase): WideningModal[] {
  const loaded = loadSpecRef(c.specPath);
  if (!loaded.ok) throw new Error(`${c.specPath}: ${loaded.errors.join('; ')}`);
  const r = replaySession({ cast: parseAsciicast(fs.readFileSync(c.castPath, 'utf8')), spec: loaded.spec, specPath: c.specPath, untilMs: 0 });
  const found = new Map<string, WideningModal>();
  try {
    for (let t = STEP_MS; t <= r.endMs + DEFAULT_TAIL_MS; t += STEP_MS) {
      r.scheduler.advanceTo(t);
      const view = r.driver.getCurrentView();
      const modal = view?.modal;
      if (!view || !modal) continue;
      const screen = r.driver.snapshot();
      if (!WIDENING_QUESTION.test(`${modal.title ?? ''}\n${screen}`)) continue;
      const key = JSON.stringify([view.state.id, modal.title, modal.kind]);
      if (!found.has(key)) found.set(key, { state: view.state.id, title: modal.title, kind: modal.kind, buttons: modal.buttons, screen });
    }
  } finally {
    r.driver.shutdown();
  }
  return [...found.values()];
}

const { cases, errors } = discoverSpecTests();
const scanned = new Map(cases.map((c) => [c.name, wideningModals(c)]));

describe('a question that lets code run or widens permissions is never kind approval', () => {
  it('the scan sees the known widening prompts of the built-in CLIs', () => {
    expect(errors).toEqual([]);
    const shown = [...scanned].filter(([, modals]) => modals.length > 0).map(([name]) => name);
    // Start-up gates and the same questions asked later from a command.
    for (const name of ['claude-code/folder-trust', 'claude-code/bypass-gate', 'codex/trust-dialog', 'codex/full-access', 'gemini/trust-dialog',
      'gemini/permissions-trust', 'qwen-code/trust-dialog', 'qwen-code/trust-settings', 'qwen-code/extension-consent',
      'kilocode/sandbox-escalation-yes']) {
      expect(shown).toContain(name);
    }
  });

  for (const c of cases) {
    const modals = scanned.get(c.name) ?? [];
    if (modals.length === 0) continue;
    it(`${c.name}: ${modals.map((m) => `"${m.title}"`).join(', ')} is a person's decision, never auto-answered`, () => {
      const policy = createApprovalPolicy({ allow: ['[\\s\\S]*'], yes: { index: 1 } });
      for (const m of modals) {
        expect(m.kind, `state ${m.state} "${m.title}" on:\n${m.screen}`).not.toBe('approval');
        const decision = decideApproval(policy, { kind: m.kind as 'confirm', startupGate: false, title: m.title, body: m.screen, buttons: m.buttons.map((b) => ({ ...b, current: false })) });
        expect(decision.verdict, decision.reason).toBe('ask');
      }
    });
  }
});

/**
 * Per CLI: the question row of its real tool-call approval, and the CLI's own words for a folder
 * trust question. A CLI can ask that question after start-up (Claude Code's /add-dir, Gemini's
 * and Qwen's /directory add, a folder newly added to the workspace), over the very screen a
 * tool call's consent uses; the kind must come from what is asked, not from when.
 */
const MID_SESSION_TRUST: Array<{ cli: string; question: string; trust: string }> = [
  { cli: 'claude-code', question: 'Do you want to proceed?', trust: 'Do you trust the files in this folder?' },
  { cli: 'demo-agent', question: 'Do you want to proceed?', trust: 'Do you trust the files in this folder?' },
  { cli: 'gemini', question: 'Allow execution of [Shell]?', trust: 'Do you trust the files in this folder?' },
  { cli: 'qwen-code', question: "Allow execution of: 'mkdir, touch'?", trust: 'Do you trust this folder?' },
  { cli: 'codex', question: 'Would you like to run the following command?', trust: 'Trust this folder?' },
  // Other words for the same question (a folder added to the workspace): the words that decide are
  // the question's, not one sentence's.
  { cli: 'gemini', question: 'Allow execution of [Shell]?', trust: 'Do you trust the folders being added to the workspace?' },
  { cli: 'qwen-code', question: "Allow execution of: 'mkdir, touch'?", trust: 'Do you want to trust the folders being added?' },
];

/**
 * The screen as the CLI would draw it asking `trust` where it asked `question`: the recording's
 * own output bytes up to the approval, the question rewritten in them (the padding after it
 * shortened so a box edge stays put). The question is drawn mid-session, while the CLI works, so
 * the spec meets it from the state it was in (busy, idle), as it would meet a real one.
 */
function askedInstead(screen: ApprovalScreen, question: string, trust: string): ApprovalScreen {
  const grow = Math.max(trust.length - question.length, 0);
  // Each character as drawn: after colour changes, a space perhaps a cursor move (Claude Code's).
  const drawn = [...question].map((ch) => `(?:\u001b\\[[0-9;]*m)*${ch === ' ' ? '(?: |\u001b\\[\\d*[CG])' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).join('');
  const asked = new RegExp(`${drawn}( {${grow},})?`, 'g');
  const events = screen.cast.events.map((e) => (e.type !== 'o' ? e : { ...e, data: e.data.replace(asked, (_m, pad: string | undefined) => trust + ' '.repeat(pad === undefined ? 0 : pad.length - grow)) }));
  return { ...screen, cast: { header: screen.cast.header, events } };
}

describe('a folder trust question asked mid-session is not a tool call\'s consent', () => {
  for (const { cli, question, trust } of MID_SESSION_TRUST) {
    it(`${cli}: "${trust}" drawn where its approval asks "${question}" is a person's decision`, () => {
      const screen = approvalScreen(cli, 'approve-yes');
      expect(screen, `${cli}/approve-yes shows an approval`).not.toBeNull();
      const reading = readApproval(askedInstead(screen!, question, trust));
      expect(reading.lines.join('\n')).toContain(trust);
      expect(reading.lines.join('\n')).not.toContain(question);
      expect(reading.modal, `${cli} shows a modal over:\n${reading.lines.join('\n')}`).not.toBeNull();
      expect(reading.modal?.kind, `${cli} over:\n${reading.lines.join('\n')}`).not.toBe('approval');
      expect(reading.decide(createApprovalPolicy({ allow: ['[\\s\\S]*'], yes: { index: 1 } })).verdict).toBe('ask');
    });
  }
});
