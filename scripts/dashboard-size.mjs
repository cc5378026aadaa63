// Measures the dashboard's initial JavaScript (every script and modulepreload that
// dist/dashboard/index.html loads, gzipped) and its CSS, prints name=value lines and fails the
// build past the budget (issue 16: initial JS <= 400 KB gzipped).
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 400 * 1024;
const dir = path.resolve(import.meta.dirname, '..', 'dist', 'dashboard');
const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(html)) {
  console.error('dashboard: index.html has an inline script; the CSP (script-src \'self\') would block it');
  process.exit(1);
}
const refs = (pattern) => [...html.matchAll(pattern)].map((m) => m[1]);
const gz = (file) => gzipSync(fs.readFileSync(path.join(dir, file.replace(/^\//, '')))).length;
const js = [...new Set([...refs(/<script[^>]*\bsrc="([^"]+)"/g), ...refs(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)])];
const css = refs(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
const total = js.reduce((sum, f) => sum + gz(f), 0);
const lazy = fs.readdirSync(path.join(dir, 'assets')).filter((f) => f.endsWith('.js') && !js.some((j) => j.endsWith(f)));
console.log(`dashboard_initial_js_gzip_bytes=${total}`);
console.log(`dashboard_initial_css_gzip_bytes=${css.reduce((sum, f) => sum + gz(f), 0)}`);
console.log(`dashboard_lazy_js_gzip_bytes=${lazy.reduce((sum, f) => sum + gz(`assets/${f}`), 0)}`);
if (total > BUDGET_BYTES) {
  console.error(`dashboard: initial JS is ${total} bytes gzipped, over the ${BUDGET_BYTES}-byte budget; lazy-load the heavy part`);
  process.exit(1);
}
