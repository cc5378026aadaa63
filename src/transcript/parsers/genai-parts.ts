/**
 * The Gemini API's message shapes, as Gemini CLI and its fork Qwen Code keep them in their
 * histories: content `parts` (text, thoughts, `functionCall`, `functionResponse`), a tool call's
 * status, and a file tool's `resultDisplay` with its patch.
 */
import type { FileEdit, ToolCallStatus } from '../../protocol/transcripts.js';
import { diffFromUnified } from '../diff.js';
import { asRecord } from '../events.js';

const STATUS: Record<string, ToolCallStatus> = { success: 'ok', error: 'error', cancelled: 'denied' };

/** A finished tool call's status (`success`, `error`, `cancelled`); undefined while it runs. */
export function statusOf(status: unknown): ToolCallStatus | undefined {
  return STATUS[String(status)];
}

/** What the tool answered the model: each `functionResponse`'s `output` (else `error`, else the response as JSON). */
export function outputOf(result: unknown): string {
  if (!Array.isArray(result)) return typeof result === 'string' ? result : '';
  return result.map((part) => {
    const response = asRecord(asRecord(asRecord(part)?.functionResponse)?.response);
    if (!response) return typeof asRecord(part)?.text === 'string' ? String(asRecord(part)?.text) : '';
    if (typeof response.output === 'string') return response.output;
    if (typeof response.error === 'string') return response.error;
    return JSON.stringify(response);
  }).join('\n');
}

/** A file tool's `resultDisplay.fileDiff` (the `diff` package's patch) as the transcript's diff. */
export function editsOf(display: unknown, args: Record<string, unknown> | null): FileEdit[] {
  const d = asRecord(display);
  if (typeof d?.fileDiff !== 'string') return [];
  const path = [d.filePath, args?.file_path, d.fileName].find((p): p is string => typeof p === 'string' && p !== '') ?? '';
  // Gemini CLI says isNewFile; Qwen Code's display has only the text before (empty or null when new).
  const isNew = typeof d.isNewFile === 'boolean' ? d.isNewFile : d.originalContent === '' || d.originalContent === null;
  const kind = isNew ? 'create' : 'edit';
  return [diffFromUnified(path, d.fileDiff, kind)];
}

/** The text parts of a content (a string or parts), thoughts left out. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => {
    const part = asRecord(p);
    return part && typeof part.text === 'string' && part.thought !== true ? part.text : '';
  }).join('');
}
