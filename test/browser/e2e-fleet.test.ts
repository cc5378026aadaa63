/**
 * The fleet end to end in Chromium (issue 25, "Done when"): a real `nats-server`, two real nodes
 * (`specterm serve --nats --node alpha|beta`, the Demo Agent) and the real hub (`specterm hub
 * --nats`); Chromium paired with the hub. The overview groups the sessions by node; an approval
 * raised on beta is answered from the hub's inbox card (which says `on beta`) and beta's
 * session returns to idle; alpha's session page renders the agent's text in its terminal,
 * streamed from alpha over NATS through the hub. Desktop (1440×900) and phone (390×844) sizes;
 * no page errors.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Approval } from '../../src/protocol/index.js';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from '../daemon/daemon-harness.js';
import { startHub, stopHubs, type RunningHub } from '../nats/hub-harness.js';
import { launchChromium, type LaunchedChromium } from './chromium.js';
import { E2E_WAIT_MS } from './e2e-harness.js';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const NODES = ['alpha', 'beta'] as const;
type NodeName = typeof NODES[number];

let nats: NatsServer;
const dirs = {} as Record<NodeName | 'hub', DaemonDirs>;
const nodes = {} as Record<NodeName, RunningDaemon>;
const ids = {} as Record<NodeName, string>;
let hub: RunningHub;
const browsers: LaunchedChromium[] = [];
const pageErrors: string[] = [];
let desktop: Page;
let approval: Approval;

/** A Chromium page at `viewport`, paired with the hub by a pairing its admin made, showing the overview. */
async function pairedPage(viewport: { width: number; height: number }, deviceName: string): Promise<Page> {
  const { url } = await hub.client.call('createPairing', { body: { device_name: deviceName, scope: 'input' } });
  const browser = await launchChromium({ viewport, hasTouch: viewport === PHONE });
  browsers.push(browser);
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${deviceName}: ${error.message}`));
  await page.goto(url);
  await page.getByRole('heading', { name: 'Sessions' }).waitFor({ timeout: E2E_WAIT_MS });
  return page;
}

const stateOn = async (node: NodeName) => (await nodes[node].client.call('getSession', { params: { id: ids[node] } })).state?.id;

/** Both nodes' groups on the overview, each headed by its node and holding its session. */
async function expectGroupedOverview(page: Page): Promise<void> {
  for (const node of NODES) {
    const group = page.locator(`section.node-group[data-node="${node}"]`);
    await group.locator(`li.session[data-session-id="${ids[node]}"]`).waitFor({ timeout: E2E_WAIT_MS });
    expect(await group.locator('h3').textContent()).toMatch(new RegExp(`^${node}\\b`));
    expect(await group.locator('li.session').count()).toBe(1);
  }
  expect(await page.locator('section.node-group').evaluateAll((groups) => groups.map((g) => g.getAttribute('data-node')))).toEqual([...NODES]);
}

async function openInboxCard(page: Page, tap: boolean) {
  const link = page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: /Inbox/ });
  await (tap ? link.tap() : link.click());
  const card = page.locator(`li.approval-card[data-approval-id="${approval.id}"]`);
  await card.waitFor({ timeout: E2E_WAIT_MS });
  expect(await card.locator('.card-session').textContent()).toContain('· on beta');
  return card;
}

beforeAll(async () => {
  nats = await startNatsServer();
  for (const name of [...NODES, 'hub'] as const) dirs[name] = makeDirs();
  [nodes.alpha, nodes.beta] = await Promise.all(NODES.map((name) => startDaemon(dirs[name], ['--nats', nats.url, '--node', name])));
  hub = await startHub(dirs.hub, nats.url);
  // A session on each node, over the hub's API: the hub knows a node once its presence record arrived.
  for (const node of NODES) {
    ids[node] = await waitFor(async () => {
      try { return (await hub.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs[node].work, name: `on-${node}`, node } })).id; } catch { return undefined; }
    }, E2E_WAIT_MS, `a session on ${node} through the hub`);
  }
  for (const node of NODES) await waitFor(async () => await stateOn(node) === 'idle', E2E_WAIT_MS, `${node}'s session idle`);
  desktop = await pairedPage(DESKTOP, 'fleet-desktop');
}, 240_000);

afterAll(async () => {
  for (const browser of browsers) await browser.close().catch(() => {});
  await stopHubs();
  await stopAll();
  await nats?.dispose();
}, 90_000);

describe('the fleet through specterm hub in Chromium', () => {
  it('groups the overview by node at desktop size: alpha and beta, each with its session', async () => {
    await expectGroupedOverview(desktop);
  }, 90_000);

  it('at phone size shows the grouped overview and the inbox card of beta\'s approval, without sideways scroll', async () => {
    await hub.client.call('sendMessage', { params: { id: ids.beta }, body: { text: 'run the tests', wait: 'started' } });
    approval = await waitFor(async () => (await hub.client.call('listApprovals')).approvals.find((a) => a.node === 'beta'), E2E_WAIT_MS, 'beta\'s approval on the hub');
    const phone = await pairedPage(PHONE, 'fleet-phone');
    await expectGroupedOverview(phone);
    await openInboxCard(phone, true);
    const { scrollWidth, clientWidth } = await phone.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  }, 120_000);

  it('answers beta\'s approval from the hub\'s inbox card: the card clears and beta\'s session returns to idle', async () => {
    const card = await openInboxCard(desktop, false);
    await card.locator('.card-buttons button[data-button-index="1"]').click();
    await card.locator('.outcome-cleared').waitFor({ timeout: E2E_WAIT_MS });
    await waitFor(async () => await stateOn('beta') === 'idle', E2E_WAIT_MS, 'beta\'s session idle on beta');
    expect((await nodes.beta.client.call('listApprovals')).approvals).toEqual([]);
    await desktop.getByText('Nothing waits for you').waitFor({ timeout: E2E_WAIT_MS });
  }, 120_000);

  it('renders alpha\'s terminal on its session page: the agent\'s text, streamed from alpha through the hub', async () => {
    await desktop.goto(`${hub.url}/sessions/${ids.alpha}`);
    await desktop.waitForFunction((id) => (globalThis as any).specterm?.terminals?.get(id)?.seq.next > 0, ids.alpha, { timeout: E2E_WAIT_MS });
    await hub.client.call('sendMessage', { params: { id: ids.alpha }, body: { text: 'hello', wait: 'idle', timeout_ms: 45_000 } });
    const screen = () => desktop.evaluate((id) => {
      const term = (globalThis as any).specterm.terminals.get(id).term;
      const lines: string[] = [];
      for (let y = 0; y < term.buffer.active.length; y += 1) lines.push(term.buffer.active.getLine(y)?.translateToString(true) ?? '');
      return lines.join('\n');
    }, ids.alpha);
    let last = '';
    await waitFor(async () => (last = await screen()).includes('Hello!'), E2E_WAIT_MS, () => `the agent's answer in the page's terminal: ${last}`);
    expect(await screen()).toContain('Welcome to Demo Agent');
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
