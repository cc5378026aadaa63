/**
 * File edits as unified diffs, from what the histories keep: hunks with their line prefixes
 * (Claude Code's structuredPatch), a whole new file, or a before/after pair of texts.
 */
import type { FileEdit } from '../protocol/transcripts.js';

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

function header(path: string, kind: FileEdit['kind']): string {
  return `--- ${kind === 'create' ? '/dev/null' : `a/${path.replace(/^\/+/, '')}`}\n+++ ${kind === 'delete' ? '/dev/null' : `b/${path.replace(/^\/+/, '')}`}\n`;
}

/** A diff from hunks whose lines already carry their ' ', '-', '+' prefix. */
export function diffFromHunks(path: string, hunks: readonly Hunk[], kind: FileEdit['kind'] = 'edit'): FileEdit {
  const body = hunks.map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.map((l) => `${l}\n`).join('')}`).join('');
  return { path, kind, diff: header(path, kind) + body };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A whole file added (every line '+') or removed (every line '-'). */
export function diffWholeFile(path: string, content: string, kind: 'create' | 'delete'): FileEdit {
  const lines = splitLines(content);
  const sign = kind === 'create' ? '+' : '-';
  const range = kind === 'create' ? `-0,0 +1,${lines.length}` : `-1,${lines.length} +0,0`;
  const body = lines.length ? `@@ ${range} @@\n${lines.map((l) => `${sign}${l}\n`).join('')}` : '';
  return { path, kind, diff: header(path, kind) + body };
}

/**
 * A unified diff a CLI wrote (its own `Index:` banner and `---`/`+++` lines, absolute or bare
 * paths: OpenCode's, and Gemini CLI's and Qwen Code's `fileDiff` from the `diff` package) made into
 * this module's form: the same hunks under the `a/…`, `b/…` header every other edit has.
 */
export function diffFromUnified(path: string, unified: string, kind: FileEdit['kind'] = 'edit'): FileEdit {
  const start = unified.search(/^@@ /m);
  const body = start === -1 ? '' : unified.slice(start);
  return { path, kind, diff: header(path, kind) + (body === '' || body.endsWith('\n') ? body : `${body}\n`) };
}
