#!/usr/bin/env node
/**
 * Screens every regex of every built-in spec for ReDoS and writes the verdicts the package ships
 * (specs/redos-verdicts.json), so that loading a built-in spec never analyses a pattern
 * (`specterm list` and `validate` stay fast, a daemon never blocks on it). Verdicts of patterns
 * still in a spec are kept; new patterns are screened (up to 60 s each); patterns no spec has any
 * more are dropped. Uses the build (run `npm run build` first: `npm run gen:redos` does).
 *
 * Usage: node scripts/gen-redos-verdicts.mjs           # write the file
 *        node scripts/gen-redos-verdicts.mjs --check   # exit 1 when a built-in pattern has no verdict
 * Exits 1 when a pattern cannot be decided (it would be reported as unscreened at every load).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkSync } from 'recheck';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;
if (!existsSync(join(root, 'dist/catalog/verdict-store.js'))) {
  console.error('gen-redos-verdicts: dist/ not found; run "npm run build" first');
  process.exit(1);
}
const { specPatterns: patternsOf } = await import(dist('catalog/prescreen.js'));
const { formatVerdictFile, readVerdictFile, verdictKey, SHIPPED_VERDICTS_FILE } = await import(dist('catalog/verdict-store.js'));

const TIMEOUT_MS = 60_000;
const specsDir = join(root, 'specs');
const target = join(specsDir, SHIPPED_VERDICTS_FILE);

const wanted = new Map();
for (const id of readdirSync(specsDir).sort()) {
  const file = join(specsDir, id, 'spec.json');
  if (!existsSync(file)) continue;
  for (const p of patternsOf(JSON.parse(readFileSync(file, 'utf8')))) {
    if (!p.flags.includes('v')) wanted.set(verdictKey(p.source, p.flags), { ...p, spec: id });
  }
}
const known = readVerdictFile(target) ?? new Map();
const missing = [...wanted.keys()].filter((k) => !known.has(k));

if (process.argv.includes('--check')) {
  for (const k of missing) console.error(`gen-redos-verdicts: no verdict for ${wanted.get(k).spec}: ${JSON.stringify(k)}`);
  if (missing.length > 0) console.error(`gen-redos-verdicts: ${missing.length} built-in pattern(s) have no shipped verdict; run "npm run gen:redos"`);
  process.exit(missing.length > 0 ? 1 : 0);
}

const verdicts = new Map([...known].filter(([k]) => wanted.has(k)));
const undecided = [];
for (const [i, key] of missing.entries()) {
  const { source, flags, spec } = wanted.get(key);
  const started = performance.now();
  const diag = checkSync(source, flags.replace('d', ''), { timeout: TIMEOUT_MS });
  const ms = Math.round(performance.now() - started);
  if (diag.status === 'safe') verdicts.set(key, { complexity: 'safe' });
  else if (diag.status === 'vulnerable') {
    const attack = typeof diag.attack?.pattern === 'string' ? diag.attack.pattern.slice(0, 120) : undefined;
    verdicts.set(key, { complexity: diag.complexity.type === 'exponential' ? 'exponential' : 'polynomial', ...(attack ? { attack } : {}) });
  } else undecided.push(`${spec}: ${JSON.stringify(key)} (${diag.error.kind})`);
  console.log(`[${i + 1}/${missing.length}] ${spec} ${diag.status} ${ms} ms ${JSON.stringify(key).slice(0, 80)}`);
}
writeFileSync(target, formatVerdictFile(verdicts));
const counts = [...verdicts.values()].reduce((c, v) => ({ ...c, [v.complexity]: (c[v.complexity] ?? 0) + 1 }), {});
console.log(`gen-redos-verdicts: ${verdicts.size} verdicts (${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ')}), ${missing.length} screened now; wrote ${target}`);
if (undecided.length > 0) {
  console.error(`gen-redos-verdicts: ${undecided.length} pattern(s) could not be decided in ${TIMEOUT_MS / 1000} s; they are reported as unscreened at every load — simplify them:\n  ${undecided.join('\n  ')}`);
  process.exit(1);
}
