// Makes the PNG icons of the manifest and index.html from src/dashboard/public/icon.svg, once:
// `node scripts/icons.mjs` (Debian's Chromium draws the SVG at each size; the PNGs are committed).
// The maskable one keeps the drawing inside the 80 % safe zone on the icon's own background.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const PUBLIC = new URL('../src/dashboard/public/', import.meta.url).pathname;
const svg = fs.readFileSync(path.join(PUBLIC, 'icon.svg'), 'utf8');
const ICONS = [
  { file: 'icon-192.png', size: 192, inset: 0 },
  { file: 'icon-512.png', size: 512, inset: 0 },
  { file: 'icon-maskable-512.png', size: 512, inset: 0.1 },
  { file: 'apple-touch-icon.png', size: 180, inset: 0 },
];

const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-icons-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await context.newPage();
  for (const icon of ICONS) {
    await page.setViewportSize({ width: icon.size, height: icon.size });
    const pad = Math.round(icon.size * icon.inset);
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(`<html><body style="margin:0;background:#111418"><img src="${src}" style="display:block;margin:${pad}px;width:${icon.size - 2 * pad}px;height:${icon.size - 2 * pad}px"></body></html>`);
    await page.locator('img').evaluate((img) => img.decode());
    fs.writeFileSync(path.join(PUBLIC, icon.file), await page.screenshot({ clip: { x: 0, y: 0, width: icon.size, height: icon.size }, omitBackground: icon.inset === 0 }));
    console.log(`${icon.file} ${icon.size}x${icon.size}`);
  }
} finally {
  await context.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
