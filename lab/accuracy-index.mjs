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
/** The first table under each `## <CLI version>` heading of a report: its summary. */
function summaries(text) {
  const out = [];
  let current = null;
  for (const line of text.split('\n')) {
    const h = /^## (.+)$/.exec(line);
    if (h) { current = { version: h[1], table: [], done: false }; out.push(current); continue; }
    if (!current || current.done) continue;
    if (line.startsWith('|')) current.table.push(line);
    else if (current.table.length > 0) current.done = true;
  }
  return out.filter((s) => s.table.length > 0);
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
let count = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.md')).sort()) {
  const id = file.replace(/\.md$/, '');
  for (const s of summaries(readFileSync(join(dir, file), 'utf8'))) {
    count += 1;
    // A per-run table keeps only its header and its "all" row.
    const rows = s.table.some((l) => /\*\*all\*\*/.test(l)) ? [s.table[0], s.table[1], ...s.table.filter((l) => /\*\*all\*\*/.test(l))] : s.table;
    out.push(`## ${id} — ${s.version}`, '', `Details: [docs/accuracy/${file}](accuracy/${file})`, '', ...rows, '');
  }
}
if (count === 0) out.push('No reports yet.', '');
writeFileSync(join(root, 'docs', 'accuracy.md'), out.join('\n'));
console.log(`docs/accuracy.md: ${count} CLI version(s)`);
