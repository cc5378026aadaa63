/**
 * What a driver tells its subscribers (events) and what it accepts (commands).
 * The shapes follow the reference's DashboardEvent / DashboardCommand (seed 001) and add
 * the faults a long-running session must report instead of throwing.
 */
import type { ModalKind, StateStatus } from '../core/spec/types.js';
import type { TransitionEval } from '../core/eval/types.js';
import type { BackgroundWork } from './background-work.js';

export interface StateView {
  id: string;
  label: string;
  title: string | null;
  status: StateStatus;
  /** The agent's own shells or sub-agents still running (spec `background_work`); absent when none. */
  background?: BackgroundWork;
}

export interface ModalView {
  title: string | null;
  /** `current`: the option the CLI's cursor marker is on (what Enter chooses); none when the spec's pattern sees no marker. */
  buttons: Array<{ index: number; label: string; current: boolean }>;
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
  | { kind: 'exit'; exit_code: number | null; signal: string | null }
  | { kind: 'spec_error'; errors: string[] }
  | { kind: 'spec_reloaded'; warnings: string[] }
  /** The child could not be started (binary missing, bad cwd …). */
  | { kind: 'spawn_error'; message: string; binary: string; searched: string[] }
  /** A command was refused; nothing was written. */
  | { kind: 'command_refused'; command: string; code: RefusalCode; reason: string }
  /** A send's lifecycle: queued (with why), delivered (body written), submitted (the CLI left idle),
   *  dropped (duplicate / shutdown) or unconfirmed (the submit never took). */
  | { kind: 'send_status'; status: 'queued' | 'delivered' | 'submitted' | 'dropped' | 'unconfirmed'; reason?: string; length: number }
  /**
   * The CLI's version is not one the spec was proven on (`outside` its `cli_version_range`), or
   * could not be read (`unreadable`, with why). The session runs all the same; detection may be wrong.
   */
  | { kind: 'version_unproven'; found: string | null; range: string; verdict: 'outside' | 'unreadable'; reason?: string }
  /**
   * The spec has said generating/idle for a while over a screen that looks like a prompt waiting
   * for a person (`reason`, the `rows` that say so): probably a prompt the spec does not know.
   * Once per episode; `frame_file` is the frame as an asciicast fragment (null: not saved).
   */
  | { kind: 'spec_drift'; state: string; status: StateStatus; reason: 'option_block' | 'navigation_hints'; rows: string[]; since_ms: number; frame_file: string | null }
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

/**
 * Why a command was refused: stable, for programs to branch on (the `reason` is for people and
 * may change). docs/runtime.md ("Command refusals") says when each is given and what to do.
 */
export type RefusalCode =
  /** The command's shape or a field is wrong (the reason names the field and the value). */
  | 'INVALID_COMMAND'
  /** `resize` outside the terminal's size bounds. */
  | 'INVALID_SIZE'
  /** `start()` has not been called yet. */
  | 'NOT_STARTED'
  /** The agent exited; the session is over. */
  | 'EXITED'
  /** The session was shut down (or could not start). */
  | 'SHUT_DOWN'
  /** `send_message` with the text of a message still being processed. */
  | 'DUPLICATE_MESSAGE'
  /** `send_message` with a text over the largest message accepted (MAX_MESSAGE_BYTES, 1 MiB of UTF-8). */
  | 'MESSAGE_TOO_LARGE'
  /** `click_control` with an id the spec's control bar does not have. */
  | 'UNKNOWN_CONTROL'
  /** The control exists but is not visible in the current state. */
  | 'CONTROL_UNAVAILABLE'
  /** `click_modal_button` while no modal of the current state is on screen. */
  | 'NO_MODAL'
  /** The modal has no button with that display index. */
  | 'NO_SUCH_BUTTON'
  /** The button's label is no longer the one the caller saw. */
  | 'MODAL_CHANGED'
  /** An arrow-key modal with no row marked current: pressing would be blind. */
  | 'MODAL_STALE'
  /** The spec has nothing to carry the command out with (no `attach_image` control). */
  | 'NOT_SUPPORTED'
  /** `attach_image` whose blob is not strict base64, decodes to nothing, or whose mime is not allowed. */
  | 'INVALID_IMAGE'
  /** `attach_image` whose decoded image is over the size cap. */
  | 'IMAGE_TOO_LARGE'
  /** A file the command needs could not be written (the reason has the system's message). */
  | 'IO_FAILED';

/** A command's outcome: done, or refused with a stable code and a reason that says what to do. */
export type DispatchResult = { ok: true } | { ok: false; code: RefusalCode; reason: string };

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
