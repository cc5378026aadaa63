/**
 * What a driver tells its subscribers (events) and what it accepts (commands).
 * The shapes follow the reference's DashboardEvent / DashboardCommand (seed 001) and add
 * the faults a long-running session must report instead of throwing.
 */
import type { ModalKind, StateStatus } from '../core/spec/types.js';
import type { TraceEntry, TransitionEval } from '../core/eval/types.js';

export interface StateView {
  id: string;
  label: string;
  title: string | null;
  status: StateStatus;
}

export interface ModalView {
  title: string | null;
  buttons: Array<{ index: number; label: string }>;
  kind: ModalKind | null;
}

export interface ControlView {
  id: string;
  label: string;
  action_type: 'send_keys' | 'open_picker' | 'attach_image';
}

export type DashboardEvent =
  | { kind: 'pty_data'; chunk: string }
  | { kind: 'state_changed'; state: StateView; modal: ModalView | null; controls: ControlView[] }
  | { kind: 'notification'; id: string; title: string; body: string }
  | { kind: 'delegate'; id: string; task: string }
  | { kind: 'signal_detected'; id: string; signal_kind: string; params: Record<string, string>; text: string }
  | { kind: 'spec_trace'; entries: TraceEntry[] }
  | { kind: 'exit'; exit_code: number | null; signal: string | null }
  | { kind: 'spec_error'; errors: string[] }
  | { kind: 'spec_reloaded'; warnings: string[] }
  /** The child could not be started (binary missing, bad cwd …). */
  | { kind: 'spawn_error'; message: string; binary: string; searched: string[] }
  /** A command was refused; nothing was written. */
  | { kind: 'command_refused'; command: string; reason: string }
  /** A send's lifecycle: queued (with why), delivered (body written), submitted (the CLI left idle),
   *  dropped (duplicate / shutdown) or unconfirmed (the submit never took). */
  | { kind: 'send_status'; status: 'queued' | 'delivered' | 'submitted' | 'dropped' | 'unconfirmed'; reason?: string; length: number }
  | { kind: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string };

export type DashboardCommand =
  | { kind: 'send_message'; text: string; bracketedPaste?: boolean }
  | { kind: 'pty_write'; data: string }
  | { kind: 'click_control'; control_id: string; payload?: unknown }
  /** `label`, when given, must equal the button's current label (refuses a press on a changed modal). */
  | { kind: 'click_modal_button'; index: number; label?: string }
  | { kind: 'attach_image'; blob: string; mime: string }
  | { kind: 'resize'; cols: number; rows: number }
  | { kind: 'cancel' }
  | { kind: 'shutdown' };

export type DispatchResult = { ok: true } | { ok: false; reason: string };

export interface DriverHistoryEntry {
  stateId: string;
  label: string;
  at: number;
  durationMs: number;
  reason: string;
  via?: string;
  matchedRules?: string[];
}

export interface FsmSnapshotEntry {
  stateFrom: string;
  stateTo: string;
  at: number;
  firedTo: string;
  firedLabel: string;
  reason: string[];
  transitions: TransitionEval[];
}

export interface TimelineEvent {
  kind: 'spawn' | 'input' | 'output' | 'resize' | 'cursor' | 'exit';
  at: number;
  preview: string;
}
