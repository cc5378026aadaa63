/**
 * The dashboard in a real Chromium against a real server (`createApiServer` serving the built
 * dist/dashboard, fixture session handlers, a WebSocket `sessions` and `terminal/<id>` topic):
 * pairing by the fragment URL and the HttpOnly cookie, the overview over HTTP + WS, the
 * terminal's cell widths against the driver's headless screen, accessibility (axe-core), the
 * phone viewport, sign-out. One browser for the file; pages are reused.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../src/protocol/index.js';
import type { WsSink } from '../../src/server/index.js';
import { notFound } from '../helpers/api-server.js';
import { TerminalScreen } from '../../src/terminal/index.js';
import { SESSION, startTestServer, type TestServer } from '../helpers/api-server.js';
import { axeViolations } from './axe.js';
import { launchChromium, type LaunchedChromium } from './chromium.js';

/** What the terminal shows: wide characters (emoji, CJK) followed by a marker to find. */
const WIDE_LINE = 'ab\u{1F600}\u{1F9E0}漢cZ';

let t: TestServer;
let browser: LaunchedChromium;
let page: Page;
let sessionList: SessionDetail[] = [];
const sinks: WsSink[] = [];
const subscriptions: string[] = [];
const acks: number[] = [];
const cspViolations: string[] = [];

beforeAll(async () => {
  t = await startTestServer({
    handlers: {
      listSessions: () => ({ sessions: sessionList }),
      // The session view reads the session it shows.
      getSession: ({ params }) => {
        const found = sessionList.find((s) => s.id === params.id);
        if (!found) throw notFound('session', params.id);
        return found;
      },
    },
    ws: {
      subscribe: (message, ctx, sink) => {
        subscriptions.push(`${ctx.principal.name}:${message.topic}`);
        if (message.topic === 'sessions') sinks.push(sink);
        if (message.topic === 'terminal/s_1') {
          sink.send({ type: 'snapshot', topic: message.topic, seq: 100, data: WIDE_LINE, cols: 80, rows: 24 });
          sink.sendTerminal({ sessionId: 's_1', seq: 100, data: new TextEncoder().encode('\r\nsecond') });
        }
        return { dispose: () => { const i = sinks.indexOf(sink); if (i >= 0) sinks.splice(i, 1); }, ack: (bytes) => acks.push(bytes) };
      },
    },
  });
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('console', (msg) => { if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text()); });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.server.close();
});

describe('the dashboard in Chromium', () => {
  it('shows the sign-in page without a cookie, with no serious accessibility violation', async () => {
    await page.goto(`${t.url}/`);
    await page.getByRole('heading', { name: 'Pair this browser' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('pairs by the fragment URL: HttpOnly cookie, fragment cleared, overview over HTTP and WS', async () => {
    const pairing = t.server.createPairing({ deviceName: 'chromium', scope: 'approve' });
    await page.goto(pairing.url);
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    expect(await page.evaluate(() => location.hash)).toBe('');
    const cookies = await browser.context.cookies(t.url);
    expect(cookies).toEqual([expect.objectContaining({ name: 'specterm_session', httpOnly: true, sameSite: 'Strict', path: '/', secure: false })]);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(t.tokens.list()).toEqual([expect.objectContaining({ name: 'chromium', scope: 'approve', revokedAt: null })]);
    await page.getByText(/No sessions yet/).waitFor();
    await page.getByText('live', { exact: true }).waitFor();
    expect(subscriptions).toContain('chromium:sessions');
  });

  it('renders sessions sorted so the one needing a person comes first, live on a WS event', async () => {
    const modal = { approval_id: 'a_1', fingerprint: 'f', title: 'Run npm test?', buttons: [{ index: 1, label: 'Yes', current: true }], kind: 'approval' as const };
    sessionList = [
      { ...SESSION, id: 's_2', name: 'builder', state: { id: 'gen', label: 'Working', title: null, status: 'generating' } },
      { ...SESSION, id: 's_1', name: 'asker', modal, state: { id: 'ask', label: 'Asking', title: null, status: 'approval' } },
      { ...SESSION, id: 's_3', name: 'done', lifecycle: 'exited', exit: { code: 0, signal: null } },
    ];
    for (const sink of sinks) sink.send({ type: 'event', topic: 'sessions', event: { type: 'session.removed', seq: 1, at: 1, session_id: 's_0' } });
    await page.locator('li.session').nth(2).waitFor();
    expect(await page.locator('li.session').evaluateAll((items) => items.map((li) => `${li.getAttribute('data-session-id')}:${li.getAttribute('data-badge')}`)))
      .toEqual(['s_1:approval', 's_2:generating', 's_3:exited']);
    await page.getByText('Run npm test?').waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('lays wide characters out in the same columns as the driver\'s headless screen', async () => {
    await page.locator('li.session[data-session-id="s_1"] a').click();
    await page.waitForFunction(() => (globalThis as any).specterm?.terminals?.get('s_1')?.seq.next === 108);
    const browserView = await page.evaluate(() => {
      const { term, renderer } = (globalThis as any).specterm.terminals.get('s_1');
      const line = term.buffer.active.getLine(0);
      const cells: string[] = [];
      for (let x = 0; x < 10; x += 1) cells.push(line.getCell(x).getChars());
      return { cells, zColumn: cells.indexOf('Z'), second: term.buffer.active.getLine(1).translateToString(true), renderer: renderer() };
    });
    const screen = new TerminalScreen({ cols: 80, rows: 24 });
    try {
      screen.write(WIDE_LINE.slice(0, -1));
      const driverZColumn = screen.cursor().col;
      expect(driverZColumn).toBe(9); // a b 😀😀 🧠🧠 漢漢 c → Z in column 9 (0-based)
      expect(browserView.zColumn).toBe(driverZColumn);
      expect(browserView.cells.slice(0, 9)).toEqual(['a', 'b', '\u{1F600}', '', '\u{1F9E0}', '', '漢', '', 'c']);
    } finally {
      screen.dispose();
    }
    expect(browserView.second).toBe('second');
    // Chromium under --disable-gpu offers WebGL2 drawn in software (SwiftShader): the page sees
    // it and keeps xterm's DOM renderer, the faster one without a GPU (gpu-webgl.ts).
    const webgl = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const info = gl?.getExtension('WEBGL_debug_renderer_info');
      return gl && info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : null;
    });
    expect(webgl).toMatch(/SwiftShader/i);
    expect(browserView.renderer).toBe('dom');
    await expect.poll(() => acks.includes(108)).toBe(true);
    expect(cspViolations).toEqual([]);
  });

  it('fits a 390×844 phone viewport without horizontal scroll', async () => {
    sessionList = sessionList.map((s) => ({ ...s, cwd: `/home/someone/projects/${'very-long-directory-name/'.repeat(6)}${s.id}` }));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${t.url}/`);
    await page.locator('li.session').nth(2).waitFor();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    expect(clientWidth).toBe(390);
  });

  it('signs out: the device token is revoked and the page returns to sign-in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Pair this browser' }).waitFor();
    expect(t.tokens.list()[0]!.revokedAt).not.toBeNull();
    expect(await browser.context.cookies(t.url)).toEqual([]);
  });
});
