/**
 * One parser per history format, chosen by the spec's `native_history.format`. A format the
 * spec format knows but specterm has no parser for yet answers with a clear error.
 */
import type { HistoryFormat } from '../../protocol/transcripts.js';
import type { HistoryParser } from '../events.js';
import { createClaudeParser } from './claude.js';
import { createCodexParser } from './codex.js';
import { createDemoParser } from './demo.js';
import { createGeminiParser } from './gemini.js';
import { createOpenCodeParser } from './opencode.js';
import { createPiParser } from './pi.js';
import { createQwenParser } from './qwen.js';

const PARSERS: Partial<Record<HistoryFormat, () => HistoryParser>> = {
  'claude-jsonl': createClaudeParser,
  'codex-rollout-jsonl': createCodexParser,
  'demo-jsonl': createDemoParser,
  'pi-jsonl': createPiParser,
  'opencode-sqlite': createOpenCodeParser,
  'gemini-jsonl': createGeminiParser,
  'qwen-jsonl': createQwenParser,
};

/** The formats that have a parser today. */
export const PARSED_FORMATS = Object.keys(PARSERS) as HistoryFormat[];

export class HistoryFormatError extends Error {
  readonly code = 'TRANSCRIPT_NO_PARSER';
  constructor(format: string) {
    super(`specterm has no reader for the history format "${format}" yet (it reads ${PARSED_FORMATS.join(', ')}); the session still runs, without a transcript`);
    this.name = 'HistoryFormatError';
  }
}

/** A fresh parser for one history file of `format`. Throws {@link HistoryFormatError}. */
export function createHistoryParser(format: string): HistoryParser {
  const make = PARSERS[format as HistoryFormat];
  if (!make) throw new HistoryFormatError(format);
  return make();
}
