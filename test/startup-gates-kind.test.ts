/**
 * Folder trust lets a folder's configuration execute code, so a trust dialog must never be
 * answerable by an auto-approve policy: every built-in recording that shows one must report it
 * as kind `confirm`, and a policy that allows everything and presses button 1 must still leave it to a person — even
 * when the daemon did not flag it as a start-up gate (a CLI can show it again mid-session).
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import { createApprovalPolicy, decideApproval } from '../src/daemon/approval-policy.js';
import { discoverSpecTests } from '../src/harness/spec-test.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';

// Gemini and Qwen title the dialog with "trust"; Claude Code with "Accessing workspace:".
const TRUST_TITLE = /\btrust\b|^accessing workspace/i;
const { cases } = discoverSpecTests();

function trustModals(castPath: string, specPath: string): Array<{ title: string | null; kind: string | null; buttons: Array<{ index: number; label: string }> }> {
  const loaded = loadSpecRef(specPath);
  if (!loaded.ok) throw new Error(`${specPath}: ${loaded.errors.join('; ')}`);
  const r = replaySession({ cast: parseAsciicast(fs.readFileSync(castPath, 'utf8')), spec: loaded.spec, specPath });
  r.driver.shutdown();
  return r.changes.flatMap((c) => (c.modal && TRUST_TITLE.test(c.modal.title ?? '') ? [c.modal] : []));
}

describe('start-up gates are confirm, never auto-answered', () => {
  const withTrust = cases.filter((c) => /trust/.test(c.name));

  it('the built-in recordings include at least one folder-trust dialog', () => {
    expect(withTrust.map((c) => c.name)).toContain('gemini/trust-dialog');
  });

  for (const c of withTrust) {
    it(`${c.name}: the trust dialog is kind confirm and an allow-all policy asks a person`, () => {
      const modals = trustModals(c.castPath, c.specPath);
      expect(modals.length, 'the replay shows the trust dialog').toBeGreaterThan(0);
      const policy = createApprovalPolicy({ allow: ['.*'], yes: { index: 1 } });
      for (const m of modals) {
        expect(m.kind).toBe('confirm');
        const decision = decideApproval(policy, { kind: m.kind as 'confirm', startupGate: false, title: m.title, body: '', buttons: m.buttons });
        expect(decision.verdict).toBe('ask');
      }
    });
  }
});
