/**
 * The last start-up prompts the labs provoke (issue 13): Claude Code's first-run onboarding (theme
 * chooser, Security notes, then folder trust) and pi's /login API-key text field. Each waits for a
 * person, so each replays as a modal that an allow-everything policy still leaves to a person:
 * the onboarding screens as `confirm` (start-up gates), the API-key field as `picker` with no
 * buttons (the answer is typed, and only the person knows it).
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import { createApprovalPolicy, decideApproval } from '../src/daemon/approval-policy.js';
import { discoverSpecTests } from '../src/harness/spec-test.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';

const { cases } = discoverSpecTests();

function replayChanges(castPath: string, specPath: string) {
  const loaded = loadSpecRef(specPath);
  if (!loaded.ok) throw new Error(`${specPath}: ${loaded.errors.join('; ')}`);
  const r = replaySession({ cast: parseAsciicast(fs.readFileSync(castPath, 'utf8')), spec: loaded.spec, specPath });
  r.driver.shutdown();
  return r.changes;
}

const allowAll = createApprovalPolicy({ allow: ['.*'], yes: { index: 1 } });

describe('Claude Code onboarding screens are start-up gates (confirm), never auto-answered', () => {
  const onboarding = cases.filter((c) => c.name.startsWith('claude-code/onboarding'));
  it('six onboarding recordings (two scenarios at 80×24, 60×20, 200×50)', () => {
    expect(onboarding.length).toBe(6);
  });
  for (const c of onboarding) {
    it(`${c.name}: the theme chooser and the Security notes are confirm, with their buttons as shown`, () => {
      const modals = replayChanges(c.castPath, c.specPath).flatMap((x) => (x.modal ? [{ state: x.state, ...x.modal }] : []));
      const theme = modals.find((m) => m.buttons[0]?.label === 'Auto (match terminal)');
      expect(theme, 'the theme chooser is read as a modal').toBeDefined();
      // The ✔ marks the current theme; it is not part of the label.
      expect(theme!.buttons.map((b) => b.label)).toContain('Dark mode');
      expect(theme!.buttons.some((b) => b.label.includes('✔'))).toBe(false);
      const notes = modals.find((m) => m.state === 'notice');
      expect(notes?.title).toBe('Security notes:');
      expect(notes?.buttons.map((b) => b.label)).toEqual(['continue']);
      for (const m of modals) {
        expect(m.kind).toBe('confirm');
        expect(decideApproval(allowAll, { kind: m.kind as 'confirm', startupGate: false, title: m.title, body: '', buttons: m.buttons }).verdict).toBe('ask');
      }
    });
  }
});

describe('pi /login API-key field waits for a person', () => {
  const keyInput = cases.filter((c) => c.name.startsWith('pi/login-apikey'));
  it('two recordings (80×24, 60×20)', () => {
    expect(keyInput.length).toBe(2);
  });
  for (const c of keyInput) {
    it(`${c.name}: key_input is status approval, kind picker, no buttons, and no policy answers it`, () => {
      const field = replayChanges(c.castPath, c.specPath).find((x) => x.state === 'key_input');
      expect(field?.status).toBe('approval');
      expect(field?.modal).toMatchObject({ kind: 'picker', title: 'Login to DeepSeek', buttons: [] });
      expect(decideApproval(allowAll, { kind: 'picker', startupGate: false, title: field!.modal!.title, body: '', buttons: [] }).verdict).toBe('ask');
    });
  }
});
