#!/usr/bin/env node
/**
 * Makes a captured history file small enough to commit as a parser fixture:
 * `node lab/lib/trim-history.mjs <in.jsonl> <out.jsonl>`. Lines are kept in order, byte for byte,
 * except: a line over 4 KB whose record carries nothing for a transcript (Claude Code's
 * attachments and API request copies, Codex's developer instructions) is dropped, and Codex's
 * `session_meta.payload.base_instructions` (the model's system prompt) is emptied. Every record
 * type still appears at least once when a small one exists, so the parser's skip lists are tested.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const MAX_LINE = 4096;
/** Records a transcript reads: never dropped, whatever their size. */
const KEEP = (rec) => ['user', 'assistant', 'cost-state'].includes(rec.type)
  || (rec.type === 'response_item' && rec.payload?.role !== 'developer' && rec.payload?.type !== 'message' ? true : rec.type === 'response_item' && ['user', 'assistant'].includes(rec.payload?.role) && !/^\s*<[a-z_]+>/.test(rec.payload?.content?.[0]?.text ?? ''))
  || rec.type === 'token_usage_record';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  process.stderr.write('usage: node lab/lib/trim-history.mjs <in.jsonl> <out.jsonl>\n');
  process.exit(2);
}
const out = [];
for (const line of readFileSync(input, 'utf8').split('\n')) {
  if (line === '') continue;
  let rec;
  try { rec = JSON.parse(line); } catch { out.push(line); continue; }
  if (rec.type === 'session_meta' && rec.payload?.base_instructions) {
    rec.payload.base_instructions = { text: '(trimmed for the fixture)' };
    out.push(JSON.stringify(rec));
    continue;
  }
  if (line.length > MAX_LINE && !KEEP(rec)) continue;
  out.push(line);
}
writeFileSync(output, `${out.join('\n')}\n`);
process.stdout.write(`${input}: ${out.length} lines kept → ${output}\n`);
