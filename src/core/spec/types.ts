/**
 * The `adhdev:cli/spec@4` model: every field a spec may carry.
 *
 * These types describe a spec *after* it passed `validateSpec`; the validator is the
 * only place that looks at untrusted JSON. Field names are the JSON names (snake_case)
 * because specs written for the reference engine must load unchanged.
 */

import type { BackgroundWorkRule } from './background-work.js';

export const SPEC_SCHEMA_ID = 'adhdev:cli/spec@4' as const;

// ── Sections ────────────────────────────────────────────────────────────────

/** Guard on the lines around an anchor candidate. A regex on a missing neighbour fails. */
export interface AnchorContext {
  prev?: string;
  prev_flags?: string;
  next?: string;
  next_flags?: string;
}

/** A size: a line count, or a percentage string such as `"25%"` / `"12.5%"`. */
export type SectionSize = number | string;

/** A named line range computed from the current screen (spec-format §2). */
export interface SectionDef {
  anchor?: string | string[];
  anchor_flags?: string;
  anchor_last?: boolean;
  /** One guard for every candidate, or one per anchor candidate (positional; null = none). */
  anchor_context?: AnchorContext | Array<AnchorContext | null>;
  /** Start the section this many lines above the anchor line (anchored sections only). */
  above?: number;
  /** `'empty'`: a missed anchor gives `[0,0)` instead of the whole screen. */
  anchor_miss?: 'empty';
  lines?: number;
  until_regex?: string;
  until_regex_flags?: string;
  /** A regex when it starts with `^`, otherwise another section's id (pass 2). */
  until?: string;
  /** Skip the first N lines (not "the first N lines"). */
  from_top?: SectionSize;
  /** The last N lines. */
  from_bottom?: SectionSize;
}

// ── Conditions ──────────────────────────────────────────────────────────────

/** Regex tested once against the whole (multi-line) section text. `flags` replaces the default `i`. */
export interface RegexCondition {
  matches: string;
  section?: string;
  flags?: string;
  cursor_row_min?: number;
  cursor_row_max?: number;
  cursor_col_min?: number;
  cursor_col_max?: number;
}

/** Whether the N rows above the cursor differ from the previous evaluation's frame. */
export interface ChangedCondition {
  cursor_above: number;
  changed: boolean;
}

/** True once `elapsed_ms` have passed since the current state was entered. */
export interface ElapsedCondition {
  elapsed_ms: number;
}

/** True once a region (section > cursor_above > whole screen) has been unchanged for `stable_ms`. */
export interface StableCondition {
  stable_ms: number;
  section?: string;
  cursor_above?: number;
  /** Lines matching this regex (flag `m`, per line) are ignored when comparing frames. */
  ignore_lines?: string;
  /** Accepted for compatibility: a stable leaf may carry `changed` (it is ignored). */
  changed?: boolean;
}

/** Shadow-only signal leaf: always true for the FSM (spec-format §3.6). */
export interface SignalCondition {
  signal: string;
  equals?: boolean;
}

/**
 * specterm extension: a regex over the terminal window title (OSC 0/2).
 * Agent CLIs animate their spinner there and the title survives scrolling.
 * `flags` replaces the default `i`, as on `matches`.
 */
export interface WindowTitleCondition {
  window_title: string;
  flags?: string;
}

/**
 * specterm extension: a regex over the last payload the CLI wrote with one OSC number
 * (`ESC ] <osc> ; <payload> BEL|ST`), e.g. Codex's `OSC 7501;state=idle:app=codex`. OSC 0/2
 * carry the window title. False until a payload of that number arrived. `held_ms`: the payload
 * must also have stood that long (a blip shorter than it does not count). `flags` replaces `i`.
 */
export interface OscCondition {
  osc: number;
  payload: string;
  flags?: string;
  held_ms?: number;
}

export interface AllCondition { all: Condition[] }
export interface AnyCondition { any: Condition[] }
export interface NotCondition { not: Condition }

export type Condition =
  | RegexCondition
  | ChangedCondition
  | ElapsedCondition
  | StableCondition
  | SignalCondition
  | WindowTitleCondition
  | OscCondition
  | AllCondition
  | AnyCondition
  | NotCondition;

// ── Extraction ──────────────────────────────────────────────────────────────

export interface ExtractTitle {
  section?: string;
  first_line?: boolean;
  regex?: string;
  flags?: string;
  /** specterm extension, with regex: join the rows a word-wrapper broke off above the matched title (read from the screen's cells). */
  join_wrapped?: boolean;
}

export interface CursorKeys {
  up?: string;
  down?: string;
}

export interface ExtractButtons {
  section?: string;
  /** Group 1 = display index, group 2 = label (numbered mode). */
  pattern: string;
  flags?: string;
  key_for_index?: string;
  min_count?: number;
  continuation_lines?: boolean;
  /** Joins the rows a wrapped label goes on over (rows under the label, not options; §5.2). */
  label_continuation?: LabelContinuation;
  select_mode?: 'index' | 'arrow_keys';
  cursor_keys?: CursorKeys;
  /** Glyphs that mark the current row, replacing the default `❯›>`. */
  cursor_marker?: string;
  /** Ordinal mode: the capture group holding the label (buttons are indexed 1..N by order). */
  label_group?: number;
  /** Ordinal mode: the capture group holding the key token (`y`, `tab`, `esc`, …). */
  key_group?: number;
  /** Leaves out rows whose label starts bold on the background of a bold title (a list's group headings; read from the cells). */
  skip_headings?: boolean;
  /** A label ends before the first word drawn otherwise than its first letter (a muted description beside the name; read from the cells). */
  label_style?: boolean;
  /** `"title"`: options start in the title's column; text elsewhere (the screen behind showing through) is no option (read from the cells). */
  label_column?: 'title';
}

/** `extract.buttons.label_continuation`: which rows under an option row continue its label. */
export interface LabelContinuation {
  /** Only rows whose first character is drawn like the text they continue (colours, bold, dim, …): a description drawn in another colour is not joined. */
  match_style?: boolean;
  /** Only rows a word-wrapper would have made: starting at the label's own column, their first word too long for the row above within the screen's width (works without colour). */
  word_wrap?: boolean;
  /** With word_wrap: the wrapper's lines end as far from the right edge as the option block is inset from the left (Ink's paddingX, a box's border and padding). */
  mirror_margin?: boolean;
}

/** What an approval asks consent for: a shell command, a file path, a URL, or a tool and its arguments. */
export type SubjectKind = 'command' | 'path' | 'url' | 'tool';

/**
 * specterm extension: where an approval state shows the thing consented to (the command, path,
 * URL or tool as the CLI shows it), read whole — every line of the region — and never from text
 * the agent wrote around it. An auto-approve policy judges this and nothing else (docs/daemon-approvals.md).
 */
export interface ExtractSubject {
  /** Section to read (default: the whole screen). */
  section?: string;
  /** The region: capture group 1 if it participated, else the whole match. It must match once (twice is ambiguous). Without it: the whole section. */
  regex?: string;
  /** Flags for regex (default none; `g` and `d` are added). */
  flags?: string;
  kind: SubjectKind;
}

// ── States and transitions ──────────────────────────────────────────────────

export type StateStatus = 'idle' | 'generating' | 'approval' | 'waiting_external';
export type ModalKind = 'approval' | 'picker' | 'confirm';

export interface FsmState {
  id: string;
  label: string;
  initial?: boolean;
  modal?: boolean;
  modal_kind?: ModalKind;
  status?: StateStatus;
  /** `subject` (specterm extension): one rule, or alternatives tried in order (the first whose regex matches decides). */
  extract?: { title?: ExtractTitle; buttons?: ExtractButtons; subject?: ExtractSubject | ExtractSubject[] };
}

export interface FsmTransition {
  from: string | string[];
  to: string;
  when?: Condition;
  min_hold_ms?: number;
  priority?: number;
  label?: string;
}

// ── Controls, notifications, delegates, signals ─────────────────────────────

export interface SendKeysAction { type: 'send_keys'; keys: string }

export interface OpenPickerAction {
  type: 'open_picker';
  trigger_keys: string;
  wait_for: { section?: string; regex: string; flags?: string };
  extract_choices: { section?: string; pattern: string; flags?: string };
  submit_key?: string;
  select_mode?: 'index' | 'arrow_keys';
  cursor_keys?: CursorKeys;
}

export interface AttachImageAction {
  type: 'attach_image';
  method?: 'tempfile_then_keys';
  keys_template: string;
}

export type ControlAction = SendKeysAction | OpenPickerAction | AttachImageAction;

export interface Control {
  id: string;
  label: string;
  visible_when_state?: string[];
  action: ControlAction;
}

export interface NotificationRule {
  id: string;
  when_state: string;
  title: string;
  body?: string;
}

export interface DelegateTrigger {
  id: string;
  when_state: string;
  after_duration_ms?: number;
  task_template: string;
}

export type SignalKind = 'usage_limit' | 'auth_error' | 'rate_limit' | 'service_error' | 'info';

export interface SignalRule {
  id: string;
  kind: SignalKind;
  section?: string;
  pattern: string;
  flags?: string;
  multiline?: boolean;
  cooldown_ms?: number;
}

export interface StartupDismiss {
  patterns: Array<{ regex: string; flags?: string }>;
  key: string;
  max_attempts?: number;
  window_ms?: number;
}

// ── Launch-time configuration ───────────────────────────────────────────────

/** Array form: append the workspace realpath to `root[key]` of a JSON settings file. */
export interface PreLaunchTrustArray {
  settings_path: string;
  key: string;
}

export type PreLaunchTrustScheme =
  | 'kimi_workspace_file'
  | 'grok_toml_file'
  | 'codex_toml_file'
  | 'claude_json_projects'
  | 'gemini_trusted_folders'
  | 'qwen_trusted_folders';

export interface PreLaunchTrustNamed {
  scheme: PreLaunchTrustScheme;
}

export type PreLaunchTrust = PreLaunchTrustArray | PreLaunchTrustNamed;

export interface SendMessageConfig {
  submit_key: string;
  delay_ms_before_submit?: number;
  delay_ms_per_char?: number;
  posix_bracketed_paste_for_images?: boolean;
  mid_generation_queue?: boolean;
}

/** The history formats specterm has a parser for (src/transcript); a spec names one. */
export const HISTORY_FORMATS = ['claude-jsonl', 'codex-rollout-jsonl', 'gemini-json', 'gemini-jsonl', 'qwen-jsonl', 'pi-jsonl', 'opencode-storage', 'opencode-sqlite', 'demo-jsonl'] as const;
export type HistoryFormat = (typeof HISTORY_FORMATS)[number];
/**
 * Placeholders of a history path template: the cwd as is, with `/` → `-`, as Claude Code names
 * a project (every char outside `[A-Za-z0-9_-]` → `-`), as pi names it (`--<cwd_dashed minus its
 * first dash>--`) and as a sha256 hex digest (Gemini CLI); the session id; the date the session started.
 */
export const HISTORY_PATH_PLACEHOLDERS = ['cwd', 'cwd_dashed', 'cwd_claude_project', 'cwd_pi', 'cwd_sha256', 'session_id', 'yyyy', 'mm', 'dd'] as const;

/**
 * How a session's native id is known: the launcher picks one and passes it (`launch_flag`, its
 * `args` with `{session_id}` appended to the launch), or the CLI picks it and specterm takes the
 * newest history file that appears for the cwd after the start (`newest_file`).
 */
export type HistorySessionIdRule = { from: 'launch_flag'; args: string[] } | { from: 'newest_file' };

/**
 * Where the CLI keeps its own transcript and how to read and resume it (spec-format "Around the
 * machine"). Not used by the FSM. The reference's own keys (`reader`, `source`, `override_path`)
 * are carried through untouched.
 */
export interface NativeHistoryConfig {
  format?: HistoryFormat;
  /** Path template from the home dir: `~`, `${VAR:-fallback}`, `{cwd…}`, `{session_id}`, `*`, `**`. */
  path?: string;
  session_id?: HistorySessionIdRule;
  /** Launch arguments that resume a session, with `{session_id}`. */
  resume_args?: string[];
  /**
   * Commands after which the CLI goes on in a new history file with a new id (Claude Code's
   * `/clear`): the transcript follows the new file, in the same specterm session.
   */
  new_session_on?: string[];
  reader?: unknown;
  source?: unknown;
  override_path?: unknown;
  [docKey: `_${string}`]: unknown;
}

// ── The spec ────────────────────────────────────────────────────────────────

/**
 * How to read a CLI's version: run the spec's binary with `args` (no shell, a few seconds at
 * most) and take `regex`'s first capture group (or its whole match) from the output; default:
 * the first `x.y.z` of it.
 */
export interface CliVersionProbe {
  args: string[];
  regex?: string;
}

export interface CliSpecV4 {
  $schema: typeof SPEC_SCHEMA_ID;
  id: string;
  name?: string;
  binary: string;
  spawn_args?: string[];
  env?: Record<string, string>;
  /** Semver range of the CLI versions this spec was proven on (a session outside it reports `version_unproven`). */
  cli_version_range?: string;
  /** specterm extension: the command that installs the CLI, shown when the binary is not found. */
  install?: string;
  /** specterm extension: how to read the installed CLI's version (see {@link CliVersionProbe}). */
  cli_version?: CliVersionProbe;
  send_on_spawn?: string[];
  send_on_spawn_delay_ms?: number;
  send_on_spawn_max_wait_ms?: number;
  refocus_when_stalled_ms?: number;
  pre_launch_trust?: PreLaunchTrust;
  startup_dismiss?: StartupDismiss;
  interactive_prompts?: { scheme: 'claude_tui' | 'kimi_wire' };
  send_message: SendMessageConfig;
  sections?: Record<string, SectionDef>;
  states: FsmState[];
  transitions: FsmTransition[];
  control_bar?: Control[];
  signal_rules?: SignalRule[];
  /** specterm extension: the agent's own shells and sub-agents still running (./background-work.ts). */
  background_work?: BackgroundWorkRule[];
  notifications?: NotificationRule[];
  delegate?: DelegateTrigger[];
  native_history?: NativeHistoryConfig;
  requiresFinalAssistantBeforeIdle?: boolean;
  holdCompletionForTranscript?: boolean;
  /** Documentation keys (`_note`, `_sections_note`, …) are tolerated. */
  [docKey: `_${string}`]: unknown;
}
