#!/usr/bin/env node
/**
 * Regenerates docs/accuracy.md from the per-CLI reports in docs/accuracy/<id>.md (each written by
 * `npm run lab -- <cli> --accuracy`): one summary row per CLI version, with a link to the details.
 * Usage: node lab/accuracy-index.mjs
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'docs', 'accuracy');
const rows = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.md')).sort()) {
  const text = readFileSync(join(dir, file), 'utf8');
  let version = null;
  let header = null;
  for (const line of text.split('\n')) {
    const h = /^## (.+)$/.exec(line);
    if (h) { version = h[1]; header = null; continue; }
    if (line.startsWith('| run ') || line.startsWith('| scenario ')) header = line;
    if (version && /^\| \*\*all\*\*/.test(line)) rows.push({ id: file.replace(/\.md$/, ''), version, header, line });
  }
}
const out = [
  '# Accuracy of the built-in specs',
  '',
  'Measured by the conformance lab: the real CLI in a real PTY under specterm, against a scripted model',
  'server on loopback whose log is the ground truth. Regenerate a CLI\'s report with',
  '`npm run lab -- <cli> --accuracy`, then this index with `node lab/accuracy-index.mjs`.',
  'Definitions (status right, buttons right, latency, flaps) are in each report.',
  '',
];
for (const r of rows) {
  out.push(`## ${r.id} — ${r.version}`, '', `Details: [docs/accuracy/${r.id}.md](accuracy/${r.id}.md)`, '');
  if (r.header) out.push(r.header, r.header.replace(/[^|]+/g, '---'));
  out.push(r.line, '');
}
if (rows.length === 0) out.push('No reports yet.', '');
writeFileSync(join(root, 'docs', 'accuracy.md'), out.join('\n'));
console.log(`docs/accuracy.md: ${rows.length} CLI version(s)`);
