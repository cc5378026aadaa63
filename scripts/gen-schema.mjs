#!/usr/bin/env node
/**
 * Writes schema/spec-v4.schema.json from the built SPEC_JSON_SCHEMA
 * (dist/core/spec/schema.js — run `npm run build` first). The JSON file is generated:
 * edit src/core/spec/schema.ts instead.
 *
 * Usage: node scripts/gen-schema.mjs          # write the file
 *        node scripts/gen-schema.mjs --check  # exit 1 when the committed file is stale
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const built = resolve(root, 'dist/core/spec/schema.js');
const target = resolve(root, 'schema/spec-v4.schema.json');

if (!existsSync(built)) {
  console.error(`gen-schema: ${built} not found; run "npm run build" first`);
  process.exit(1);
}
const { SPEC_JSON_SCHEMA } = await import(pathToFileURL(built).href);
const text = `${JSON.stringify(SPEC_JSON_SCHEMA, null, 2)}\n`;

if (process.argv.includes('--check')) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== text) {
    console.error('gen-schema: schema/spec-v4.schema.json is stale; run "npm run build && node scripts/gen-schema.mjs"');
    process.exit(1);
  }
  console.log('gen-schema: schema/spec-v4.schema.json is up to date');
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`gen-schema: wrote ${target}`);
}
