/**
 * What the Demo Agent shows, as one immutable snapshot built from the session's state: the
 * transcript, the streaming items, the spinner, the modal that replaces the input box (folder
 * trust, a tool's approval, the model picker), the hint line and the window title.
 * @module
 */
import type { InputBuffer } from './input-buffer.js';
import type { ModelInfo, ToolStep } from './scenario.js';
import { spinnerGlyph, type SpinnerView, type TranscriptItem } from './transcript.js';
import type { Turn } from './turn.js';

/** The product name shown everywhere ("tell Demo Agent what to do differently"). */
export const AGENT_NAME = 'Demo Agent';
/** Real milliseconds per animation frame: the spinner repaints at ~10 fps. */
export const FRAME_MS = 100;

/** The modal currently replacing the input box. */
export type ModalView =
  | { kind: 'trust'; cwd: string; cursor: number; options: string[] }
  | { kind: 'approval'; title: string; command: string; description?: string; cursor: number; options: string[] }
  | { kind: 'picker'; models: ModelInfo[]; active: string; cursor: number };

/** Everything the UI renders, as one immutable snapshot. */
export interface SessionView {
  /** Bumped whenever the whole screen must be repainted (resize, /clear, Ctrl-L). */
  epoch: number;
  cwd: string;
  committed: readonly TranscriptItem[];
  live: readonly TranscriptItem[];
  spinner: SpinnerView | null;
  input: InputBuffer;
  /** False while a modal replaces the input box. */
  showInput: boolean;
  modal: ModalView | null;
  hint: { left: string; right: string };
  shortcutsOpen: boolean;
  /** OSC 0 window title. */
  title: string;
}

/** An approval's heading, by tool family (as Claude Code heads them). */
function approvalTitle(tool: string): string {
  const titles: Record<string, string> = { Bash: 'Bash command', Edit: 'Edit file', Write: 'Create file', Read: 'Read file' };
  return titles[tool] ?? 'Tool use';
}

/** The approval's three options, worded as Claude Code words them. */
function approvalOptions(step: ToolStep): string[] {
  const always = step.tool === 'Bash'
    ? `Yes, and don't ask again for ${step.command.trim().split(/\s+/)[0]} commands`
    : `Yes, and don't ask again for ${step.tool} this session`;
  return ['Yes', always, `No, and tell ${AGENT_NAME} what to do differently (esc)`];
}

/** The folder-trust prompt's options. */
export const TRUST_OPTIONS = ['Yes, proceed', 'No, exit'];

/** The session's state a view is built from. */
export interface ViewInput {
  epoch: number;
  cwd: string;
  committed: readonly TranscriptItem[];
  turn: Turn | null;
  /** Real time since start: the spinner's frame. */
  realMs: number;
  /** The trust prompt's cursor while it is shown, else null. */
  trustCursor: number | null;
  picker: { cursor: number } | null;
  models: ModelInfo[];
  model: string;
  input: InputBuffer;
  focused: boolean;
  ctrlCArmed: boolean;
  shortcutsOpen: boolean;
  /** The background jobs running (`/bg`), in the hint line's words ('' when none). */
  jobsHint: string;
}

/** The snapshot of `s`. */
export function buildSessionView(s: ViewInput): SessionView {
  const turn = s.turn;
  const awaitingApproval = turn?.awaitingApproval === true;
  const spinner: SpinnerView | null = turn !== null && !awaitingApproval
    ? {
        glyph: spinnerGlyph(Math.floor(s.realMs / FRAME_MS)),
        verb: turn.verb,
        elapsedSeconds: Math.floor(turn.elapsedMs / 1000),
        tokens: turn.tokens,
        direction: turn.direction,
      }
    : null;
  let modal: ModalView | null = null;
  if (s.trustCursor !== null) {
    modal = { kind: 'trust', cwd: s.cwd, cursor: s.trustCursor, options: TRUST_OPTIONS };
  } else if (turn?.tool != null && awaitingApproval) {
    const { step, cursor } = turn.tool;
    modal = {
      kind: 'approval',
      title: approvalTitle(step.tool),
      command: step.command,
      ...(step.description !== undefined && { description: step.description }),
      cursor,
      options: approvalOptions(step),
    };
  } else if (s.picker !== null) {
    modal = { kind: 'picker', models: s.models, active: s.model, cursor: s.picker.cursor };
  }
  let left = '? for shortcuts';
  if (!s.focused) left = '(input paused — terminal not focused)';
  else if (s.ctrlCArmed) left = 'Press Ctrl-C again to exit';
  return {
    epoch: s.epoch,
    cwd: s.cwd,
    committed: s.committed,
    live: turn === null ? [] : turn.live.map((item) => ({ ...item })),
    spinner,
    input: s.input,
    showInput: modal === null,
    modal,
    hint: { left: left + s.jobsHint, right: s.model },
    shortcutsOpen: s.shortcutsOpen,
    title: `${spinner === null ? '✳' : spinner.glyph} ${AGENT_NAME}`,
  };
}
