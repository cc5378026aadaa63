/**
 * Attaching an image end to end: a session whose spec has an attach_image control (the fake
 * agent, test/fixtures/specs/fake-agent-attach.json) takes an image dropped on or pasted into
 * the session view; the daemon's driver writes it to a private temp file and types its path
 * (`@/tmp/….png`), which the agent echoes. Refusals say why: a file that is no image (in the
 * page, before any upload), a spec without the control, an image over the size cap.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError } from '../../src/client/index.js';
import { MAX_IMAGE_UPLOAD_BYTES, type SessionDetail } from '../../src/protocol/index.js';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';

const ATTACH_SPEC = fileURLToPath(new URL('../fixtures/specs/fake-agent-attach.json', import.meta.url));
const FAKE_AGENT = fileURLToPath(new URL('../fixtures/agents/fake-agent.mjs', import.meta.url));
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';

let e: DashboardE2e;
let session: SessionDetail;

beforeAll(async () => {
  e = await startDashboardE2e();
  session = await e.createIdleSession({ spec: ATTACH_SPEC, args: [FAKE_AGENT], name: 'with-images' });
}, 150_000);
afterAll(async () => { await e?.close(); }, 60_000);

/** Dispatches a drop (or a paste) of `name` carrying `base64` of type `type` on `selector`. */
async function deliverFile(page: Page, how: 'drop' | 'paste', selector: string, file: { name: string; type: string; base64: string }): Promise<void> {
  await page.evaluate(({ how, selector, file }) => {
    const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], file.name, { type: file.type }));
    const target = document.querySelector(selector)!;
    target.dispatchEvent(how === 'drop'
      ? new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true })
      : new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, { how, selector, file });
}

const imagePathsOnScreen = async () => [...(await e.client.call('getScreen', { params: { id: session.id } })).content.matchAll(/@(\/\S+\.png)/g)].map((m) => m[1]!);

describe('attaching an image from the session view', () => {
  it('attaches a dropped PNG: the agent gets the path of a private temp file holding it', async () => {
    const page = e.page;
    await page.goto(`${e.url}/sessions/${session.id}`);
    await page.locator('.image-drop').waitFor({ timeout: E2E_WAIT_MS });
    await deliverFile(page, 'drop', '.image-drop', { name: 'dot.png', type: 'image/png', base64: PNG });
    await page.locator('.image-status.image-attached').waitFor({ timeout: E2E_WAIT_MS });
    expect(await page.locator('.image-status').textContent()).toBe('Attached dot.png (1 KiB)');
    const paths = await waitFor(async () => { const p = await imagePathsOnScreen(); return p.length === 1 && p; }, E2E_WAIT_MS, 'the image path echoed by the agent');
    expect(paths[0]!.endsWith('.png')).toBe(true);
  }, 90_000);

  it('attaches a PNG pasted into the send box', async () => {
    const page = e.page;
    await deliverFile(page, 'paste', '.send-box textarea', { name: 'pasted.png', type: 'image/png', base64: PNG });
    await page.getByText('Attached pasted.png (1 KiB)').waitFor({ timeout: E2E_WAIT_MS });
    await waitFor(async () => (await imagePathsOnScreen()).length === 2, E2E_WAIT_MS, 'the second image path echoed');
  }, 60_000);

  it('refuses a file that is not an image in the page, before any upload', async () => {
    const page = e.page;
    await page.locator('.image-tools input[type="file"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.locator('.image-status.image-refused').waitFor();
    expect(await page.locator('.image-status').textContent()).toBe('notes.txt is text/plain; attach a PNG, JPEG, GIF or WebP image');
    expect(await imagePathsOnScreen()).toHaveLength(2);
  }, 30_000);

  it('over the API: refuses a spec without the control (409), an oversized image (422) and bytes that are no PNG (409)', async () => {
    const refusal = async (id: string, body: { mime: 'image/png'; data: string }) => {
      try {
        await e.client.call('attachImage', { params: { id }, body });
      } catch (error) {
        return error as ClientError;
      }
      throw new Error('the upload was accepted');
    };
    const demo = await e.createIdleSession({ name: 'no-images' });
    expect(await refusal(demo.id, { mime: 'image/png', data: PNG })).toMatchObject({ status: 409, code: 'COMMAND_REFUSED', message: expect.stringContaining('has no attach_image control') });
    const big = Buffer.alloc(MAX_IMAGE_UPLOAD_BYTES + 3, 0).toString('base64');
    const tooBig = await refusal(session.id, { mime: 'image/png', data: big });
    expect(tooBig.status).toBe(422);
    expect(JSON.stringify(tooBig.problem)).toContain('over 700 KiB');
    expect(await refusal(session.id, { mime: 'image/png', data: Buffer.from('GIF89a-not-a-png').toString('base64') })).toMatchObject({ status: 409, code: 'COMMAND_REFUSED' });
    expect(await e.client.call('getSession', { params: { id: demo.id } })).toMatchObject({ lifecycle: 'running' });
  }, 90_000);
});
