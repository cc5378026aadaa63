/**
 * The spec editor tab in Chromium against a real daemon (`specterm serve` over dist/) with a real
 * demo-agent session: an edit with an error shows the error (path + message) as you type, Save is
 * refused, and the session keeps running the old spec; the same text fixed with a label change
 * saves, hot-reloads, and the new label appears (the debugger's state line and the session's
 * state); no serious or critical accessibility violation on the tab.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonClient } from '../../src/client/index.js';
import { REPO, waitFor } from '../daemon/daemon-harness.js';
import { axeViolations } from './chromium.js';
import { openDaemonPage, type DaemonPage } from './daemon-page.js';

const WAIT_MS = 60_000;
const PACKAGE_SPEC = path.join(REPO, 'specs/demo-agent/spec.json');

let t: DaemonPage;
let client: DaemonClient;
let page: Page;
let sessionId: string;

beforeAll(async () => {
  t = await openDaemonPage('spec-editor-test', 'input', WAIT_MS);
  ({ client, page, sessionId } = t);
}, 120_000);

afterAll(async () => { await t?.close(); }, 60_000);

function withIdleLabel(text: string, label: string): string {
  const spec = JSON.parse(text) as { states: Array<{ id: string; label?: string }> };
  spec.states.find((s) => s.id === 'idle')!.label = label;
  return JSON.stringify(spec, null, 2);
}

describe('the spec editor tab in Chromium against a real daemon', () => {
  it('shows an error as you type, refuses to save it and keeps the old spec running', async () => {
    await page.goto(new URL(`/sessions/${sessionId}`, page.url()).href);
    await page.getByRole('link', { name: 'Spec', exact: true }).click();
    const editor = page.getByLabel('Spec JSON');
    await editor.waitFor({ timeout: WAIT_MS });
    const packageText = fs.readFileSync(PACKAGE_SPEC, 'utf8');
    await waitFor(async () => (await editor.inputValue()) === packageText, WAIT_MS, 'the spec text');
    await page.locator('.spec-ok').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await editor.fill(withIdleLabel(packageText, 'Broken').replace('"to": "idle"', '"to": "nowhere"'));
    const error = page.locator('.spec-errors li').filter({ hasText: 'nowhere' });
    await error.waitFor({ timeout: WAIT_MS });
    expect(await error.locator('code').first().textContent()).toMatch(/^transitions\[\d+\]/);
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);

    expect(fs.readFileSync(PACKAGE_SPEC, 'utf8')).toBe(packageText);
    expect(fs.existsSync(path.join(t.dirs.stateDir, 'spec-overrides'))).toBe(false);
    expect(await client.call('getSession', { params: { id: sessionId } })).toMatchObject({ lifecycle: 'running', state: { id: 'idle', label: 'Idle' } });
  }, 120_000);

  it('saves the fixed text with a label change, and the new label appears', async () => {
    const editor = page.getByLabel('Spec JSON');
    await editor.fill(withIdleLabel(fs.readFileSync(PACKAGE_SPEC, 'utf8'), 'Waiting for you'));
    await page.locator('.spec-ok').waitFor({ timeout: WAIT_MS });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/Saved to .* and reloaded\./).waitFor({ timeout: WAIT_MS });
    await waitFor(async () => (await client.call('getSession', { params: { id: sessionId } })).state?.label === 'Waiting for you', WAIT_MS, 'the new label');
    await page.getByRole('link', { name: 'Debugger', exact: true }).click();
    await page.locator('.debug-state [data-state="idle"]').filter({ hasText: 'Waiting for you' }).waitFor({ timeout: WAIT_MS });
  }, 120_000);

  it('previews a condition on the live screen', async () => {
    await page.getByRole('link', { name: 'Spec', exact: true }).click();
    const condition = page.getByLabel('Condition (JSON) to evaluate on the screen now');
    await condition.fill('{"matches": "zzz-not-on-screen"}');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('.spec-preview strong').filter({ hasText: 'false' }).waitFor({ timeout: WAIT_MS });
  }, 120_000);

  it('completes keys and values from the spec schema with Ctrl+Space, and inserts the pick', async () => {
    const editor = page.getByLabel('Spec JSON');
    await editor.fill('{\n  "id": "x",\n  "states": [{"id": "idle", "modal_kind": }]\n}');
    // The caret right after `"modal_kind": `: the values of the enum.
    const text = await editor.inputValue();
    const caret = text.indexOf('"modal_kind": ') + '"modal_kind": '.length;
    await editor.evaluate((el, at) => { (el as HTMLTextAreaElement).setSelectionRange(at, at); }, caret);
    await page.keyboard.press('Control+Space');
    const list = page.getByRole('listbox', { name: 'Values allowed here' });
    await list.waitFor({ timeout: WAIT_MS });
    expect(await list.getByRole('option').allTextContents()).toEqual([
      expect.stringMatching(/^approval — /), expect.stringMatching(/^picker — /), expect.stringMatching(/^confirm — /),
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await list.waitFor({ state: 'detached' });
    expect(await editor.inputValue()).toContain('"modal_kind": "picker"');

    // Typing the quote that opens a key lists the keys the state may still have.
    await editor.evaluate((el) => {
      const area = el as HTMLTextAreaElement;
      const at = area.value.indexOf('"picker"') + '"picker"'.length;
      area.setSelectionRange(at, at);
    });
    await page.keyboard.type(', "');
    const keys = page.getByRole('listbox', { name: 'Keys allowed here' });
    await keys.waitFor({ timeout: WAIT_MS });
    await page.keyboard.type('lab');
    await expect.poll(() => keys.getByRole('option').allTextContents()).toEqual([expect.stringMatching(/^label — /)]);
    // No animation frame comes until the value is typed (as on a busy machine): the caret must be
    // after the insert already when the next key arrives.
    await page.evaluate(() => { globalThis.requestAnimationFrame = () => 0; });
    await page.keyboard.press('Tab');
    await keys.waitFor({ state: 'detached' });
    await expect.poll(() => editor.inputValue()).toContain('"modal_kind": "picker", "label": }]');
    await page.keyboard.type('"Idle"');
    expect(JSON.parse(await editor.inputValue())).toEqual({ id: 'x', states: [{ id: 'idle', modal_kind: 'picker', label: 'Idle' }] });
  }, 120_000);
});
