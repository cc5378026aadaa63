/**
 * axe-core in a page: the serious and critical violations, each with the nodes it found, so a
 * failing test says where. Injected by the DevTools protocol, which the page's CSP does not govern.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async () => (globalThis as any).axe.run(document, { resultTypes: ['violations'] }));
  return (results.violations as Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }>)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}
