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

/**
 * The words of those questions as the built-in CLIs put them: Claude Code's folder trust
 * ("Accessing workspace: … trust this folder") and its Bypass Permissions warning, Codex's
 * "Trust this folder?" and "Enable full access?", Gemini's and Qwen's "Do you trust …" and
 * /trust's "Modify Trust Level", Qwen's "Installing extension …".
 */
const WIDENING_QUESTION = /\btrust (?:this|the|parent) (?:folder|directory|files|workspace)|\bdo you trust\b|\btrust level\b|\benable full access\b|\bbypass permissions\b|\binstall(?:ing)? (?:the )?(?:extension|plugin)\b|\ballow this folder\b/i;
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
      'gemini/permissions-trust', 'qwen-code/trust-dialog', 'qwen-code/trust-settings', 'qwen-code/extension-consent']) {
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
