/** Types of lab/gemini/measure.mjs (the Gemini lab's ground truth), for the TypeScript tests. */

export interface LabelledInterval { from: number; to: number; status: string }

export function measureSession(input: {
  startedAt: number;
  endedAt: number;
  /** Driver status changes, `t` in seconds from the session start. */
  changes: Array<{ t: number; state: string; status: string }>;
  /** The server's log (`stream_start`, `stream_end` with `functionCall` when it ended in one, `tool_call_pending`, `tool_result`). */
  log: Array<{ t: number; event: string; functionCall?: string }>;
  /** The lab's actions (`ready`, `submit`, `approve`, `deny`, `modal_shown`, `modal_answered`, …). */
  actions: Array<{ t: number; what: string }>;
}): { labelledMs: number; rightMs: number; flaps: number; intervals: LabelledInterval[] };
