/**
 * The Demo Agent's behaviour as a plain state machine: key events and elapsed time go in,
 * an immutable {@link SessionView} and a few effects (exit, persist trust, clear screen)
 * come out. No terminal, no timers: `main.tsx` feeds it real input and a 100 ms tick,
 * tests feed it decoded keys and virtual milliseconds.
 * @module
 */
import {
  EMPTY_INPUT,
  deleteBackward,
  deleteForward,
  deleteToLineEnd,
  deleteToLineStart,
  deleteWordBackward,
  insertText,
  moveCursor,
  moveToLineEdge,
  type InputBuffer,
} from './input-buffer.js';
import type { KeyEvent } from './key-decoder.js';
import { selectRule, type Scenario, type ScenarioRule } from './scenario.js';
import { AGENT_NAME, buildSessionView, FRAME_MS, TRUST_OPTIONS, type SessionView } from './session-view.js';
import type { TranscriptItem } from './transcript.js';
import { allowKey, Turn } from './turn.js';
import { menuChoice, moveMenuCursor } from './menu-keys.js';
import { BackgroundJobs, BG_USAGE, parseJobSeconds } from './background-jobs.js';

export { AGENT_NAME, FRAME_MS, type ModalView, type SessionView } from './session-view.js';

/** Window for the second Ctrl-C at idle (real time, like Claude Code). */
export const CTRL_C_EXIT_WINDOW_MS = 2000;
/** Exit code after a double Ctrl-C (128 + SIGINT, what a shell reports for Ctrl-C). */
export const EXIT_CODE_CTRL_C = 130;
/** Exit code when the user declines folder trust. */
export const EXIT_CODE_UNTRUSTED = 1;

/** Construction options. */
export interface DemoSessionOptions {
  scenario: Scenario;
  /** Time multiplier for scenario durations: 0.2 runs everything 5× faster. */
  speed: number;
  seed: number;
  cwd: string;
  showTrustPrompt: boolean;
  focusGated: boolean;
  freezeOnFocusLoss: boolean;
  /** Receives each finished transcript item (the native history); `tokens`: the turn's so far. */
  history?: { record(item: TranscriptItem, tokens: number, model: string): void; startNew?(): void };
  /** Items of a resumed conversation, shown under the banner. */
  restored?: readonly TranscriptItem[];
}

/** Side effects the host performs. */
export type SessionEffect =
  | { type: 'exit'; code: number }
  | { type: 'trust-accepted' }
  | { type: 'clear-screen' };

/** Deterministic PRNG (mulberry32) so `--seed` fixes the spinner verbs. */
function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HELP_LINES = [
  `${AGENT_NAME} — a scripted coding-agent TUI (no network, no AI).`,
  'Commands: /help  /model [name]  /bg <seconds>  /clear  /exit',
  'Keys: Enter send · Ctrl-J newline · Esc or Ctrl-C interrupt · Ctrl-C twice to exit',
];

/** The Demo Agent state machine. */
export class DemoSession {
  readonly #options: DemoSessionOptions;
  readonly #random: () => number;
  readonly #listeners = new Set<() => void>();
  readonly #effects: (effect: SessionEffect) => void;
  readonly #allowed = new Set<string>();
  readonly #jobs = new BackgroundJobs();
  #phase: 'trust' | 'main' | 'exited';
  #trustCursor = 0;
  #committed: TranscriptItem[] = [];
  #input: InputBuffer = EMPTY_INPUT;
  #turn: Turn | null = null;
  #picker: { cursor: number } | null = null;
  #model: string;
  #focused: boolean;
  #frozen = false;
  #realMs = 0;
  #ctrlCArmedUntil: number | null = null;
  #shortcutsOpen = false;
  #epoch = 0;
  #nextId = 1;
  #view: SessionView;

  /** @param effects receives exit / trust / clear-screen requests, synchronously, before listeners run. */
  constructor(options: DemoSessionOptions, effects: (effect: SessionEffect) => void) {
    this.#options = options;
    this.#effects = effects;
    this.#random = createRandom(options.seed);
    this.#model = options.scenario.model;
    this.#focused = !options.focusGated;
    this.#phase = options.showTrustPrompt ? 'trust' : 'main';
    if (this.#phase === 'main') this.#commit({ kind: 'banner', id: this.#id() });
    for (const item of options.restored ?? []) this.#committed.push({ ...item, id: this.#id() });
    this.#view = this.#buildView();
  }

  /** The current snapshot (same object until something changes: safe for `useSyncExternalStore`). */
  getView = (): SessionView => this.#view;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The active model name. */
  get model(): string {
    return this.#model;
  }

  /** True while a turn (thinking, streaming, tool, approval) is in progress. */
  get isGenerating(): boolean {
    return this.#turn !== null;
  }

  /** True while repainting is frozen (focus lost while generating, `--freeze-on-focus-loss`). */
  get isFrozen(): boolean {
    return this.#frozen;
  }

  /** Adds a `⎿  text` line to the transcript (used by the host to report a failed settings write). */
  addNotice(text: string, tone: 'error' | 'dim' | 'plain' = 'dim'): void {
    this.#commit({ kind: 'result', id: this.#id(), text, tone });
    this.#notify();
  }

  /** Requests a full repaint (terminal resized): the host clears the screen, the UI reprints. */
  redraw(): void {
    this.#effects({ type: 'clear-screen' });
    this.#epoch++;
    this.#notify();
  }

  /** Advances time by `realMs` real milliseconds (scenario time advances by `realMs / speed`). */
  advance(realMs: number): void {
    if (this.#phase === 'exited' || this.#frozen || realMs <= 0) return;
    const frameBefore = Math.floor(this.#realMs / FRAME_MS);
    this.#realMs += realMs;
    let changed = false;
    if (this.#ctrlCArmedUntil !== null && this.#realMs >= this.#ctrlCArmedUntil) {
      this.#ctrlCArmedUntil = null;
      changed = true;
    }
    changed = this.#jobs.advance(realMs / this.#options.speed) || changed;
    const turn = this.#turn;
    if (turn !== null) {
      const virtualMs = realMs / this.#options.speed;
      turn.elapsedMs += virtualMs;
      if (!turn.awaitingApproval) this.#runTurn(turn, virtualMs);
      changed ||= Math.floor(this.#realMs / FRAME_MS) !== frameBefore || this.#turn === null;
    }
    if (changed) this.#notify();
  }

  /** Handles decoded input events. */
  handleInput(events: readonly KeyEvent[]): void {
    for (const event of events) {
      if (this.#phase === 'exited') return;
      if (event.type === 'focus') {
        this.#handleFocus(event.focused);
        continue;
      }
      // Ctrl-C always gets through so a paused agent can still be quit from the keyboard.
      const isCtrlC = event.type === 'key' && event.name === 'ctrl-c';
      if (!this.#focused && !isCtrlC) continue;
      this.#frozen = false;
      if (event.type === 'ignored') continue;
      if (this.#phase === 'trust') this.#handleTrustKey(event);
      else if (this.#picker !== null) this.#handlePickerKey(event);
      else if (this.#turn?.awaitingApproval) this.#handleApprovalKey(event);
      else this.#handleMainKey(event);
    }
    this.#notify();
  }

  // ── focus, trust, picker, approval ─────────────────────────────────────────

  #handleFocus(focused: boolean): void {
    if (this.#options.focusGated) this.#focused = focused;
    if (this.#options.freezeOnFocusLoss) this.#frozen = !focused && this.#turn !== null;
  }

  #handleTrustKey(event: KeyEvent): void {
    const choice = menuChoice(event, TRUST_OPTIONS.length, this.#trustCursor);
    if (choice === 'up' || choice === 'down') {
      this.#trustCursor = moveMenuCursor(this.#trustCursor, choice, TRUST_OPTIONS.length);
    } else if (choice === 'cancel' || choice === 2) {
      this.#exit(EXIT_CODE_UNTRUSTED);
    } else if (choice === 'interrupt') {
      this.#exit(EXIT_CODE_CTRL_C);
    } else if (choice === 1) {
      this.#phase = 'main';
      this.#commit({ kind: 'banner', id: this.#id() });
      this.#effects({ type: 'trust-accepted' });
    }
  }

  #handlePickerKey(event: KeyEvent): void {
    const picker = this.#picker;
    if (picker === null) return;
    const models = this.#options.scenario.models;
    const choice = menuChoice(event, models.length, picker.cursor);
    if (choice === 'up' || choice === 'down') {
      picker.cursor = moveMenuCursor(picker.cursor, choice, models.length);
    } else if (choice === 'cancel' || choice === 'interrupt') {
      this.#picker = null;
      this.#commit({ kind: 'result', id: this.#id(), text: `Kept model as ${this.#model}`, tone: 'dim' });
    } else if (typeof choice === 'number') {
      this.#picker = null;
      this.#setModel(models[choice - 1].name);
    }
  }

  #handleApprovalKey(event: KeyEvent): void {
    const turn = this.#turn;
    const tool = turn?.tool;
    if (turn == null || tool == null) return;
    const choice = menuChoice(event, 3, tool.cursor);
    if (choice === 'up' || choice === 'down') {
      tool.cursor = moveMenuCursor(tool.cursor, choice, 3);
    } else if (choice === 'interrupt') {
      this.#interrupt();
    } else if (choice === 'cancel' || choice === 3) {
      tool.item.status = 'declined';
      turn.end({ kind: 'result', id: this.#id(), text: 'User declined', tone: 'error' });
      this.#turn = null;
    } else if (choice === 1 || choice === 2) {
      if (choice === 2) this.#allowed.add(allowKey(tool.step));
      turn.approve();
    }
  }

  // ── the input box ──────────────────────────────────────────────────────────

  #handleMainKey(event: KeyEvent): void {
    if (!(event.type === 'key' && event.name === 'ctrl-c')) this.#ctrlCArmedUntil = null;
    if (event.type === 'text' || event.type === 'paste') {
      if (event.type === 'text' && event.text === '?' && this.#input.text === '') {
        this.#shortcutsOpen = !this.#shortcutsOpen;
        return;
      }
      this.#shortcutsOpen = false;
      this.#input = insertText(this.#input, event.text);
      return;
    }
    if (event.type !== 'key') return;
    this.#shortcutsOpen = false;
    switch (event.name) {
      case 'enter':
        // While generating, typed text waits in the box; it is never submitted mid-turn.
        if (this.#turn === null) this.#submit();
        return;
      case 'newline': this.#input = insertText(this.#input, '\n'); return;
      case 'backspace': this.#input = deleteBackward(this.#input); return;
      case 'delete': this.#input = deleteForward(this.#input); return;
      case 'left': case 'right': this.#input = moveCursor(this.#input, event.name); return;
      case 'home': case 'ctrl-a': this.#input = moveToLineEdge(this.#input, 'start'); return;
      case 'end': case 'ctrl-e': this.#input = moveToLineEdge(this.#input, 'end'); return;
      case 'ctrl-u': this.#input = deleteToLineStart(this.#input); return;
      case 'ctrl-k': this.#input = deleteToLineEnd(this.#input); return;
      case 'ctrl-w': this.#input = deleteWordBackward(this.#input); return;
      case 'ctrl-l': this.redraw(); return;
      case 'escape': if (this.#turn !== null) this.#interrupt(); return;
      case 'ctrl-c': this.#handleCtrlC(); return;
      default: return;
    }
  }

  #handleCtrlC(): void {
    if (this.#turn !== null) {
      this.#interrupt();
    } else if (this.#input.text !== '') {
      this.#input = EMPTY_INPUT;
    } else if (this.#ctrlCArmedUntil !== null) {
      this.#exit(EXIT_CODE_CTRL_C);
    } else {
      this.#ctrlCArmedUntil = this.#realMs + CTRL_C_EXIT_WINDOW_MS;
    }
  }

  #submit(): void {
    const text = this.#input.text;
    if (text.trim() === '') return;
    this.#input = EMPTY_INPUT;
    const trimmed = text.trim();
    if (trimmed.startsWith('/')) {
      this.#runCommand(trimmed);
      return;
    }
    this.#commit({ kind: 'user', id: this.#id(), text });
    this.#startTurn(text);
  }

  #runCommand(command: string): void {
    const [name, ...args] = command.split(/\s+/);
    switch (name) {
      case '/exit':
      case '/quit':
        this.#exit(0);
        return;
      case '/clear':
        this.#committed = [];
        this.#options.history?.startNew?.();
        this.redraw();
        return;
      default:
        break;
    }
    this.#commit({ kind: 'user', id: this.#id(), text: command });
    if (name === '/help') {
      this.#commit({ kind: 'result', id: this.#id(), text: HELP_LINES.join('\n'), tone: 'plain' });
    } else if (name === '/model') {
      const wanted = args[0];
      const models = this.#options.scenario.models;
      if (wanted === undefined) {
        this.#picker = { cursor: Math.max(0, models.findIndex((m) => m.name === this.#model)) };
      } else if (models.some((m) => m.name === wanted)) {
        this.#setModel(wanted);
      } else {
        const names = models.map((m) => m.name).join(', ');
        this.#commit({ kind: 'result', id: this.#id(), text: `Unknown model "${wanted}". Available: ${names}`, tone: 'error' });
      }
    } else if (name === '/bg') {
      this.#startJob(args[0]);
    } else {
      this.#commit({ kind: 'result', id: this.#id(), text: `Unknown slash command: ${name}. Type /help for the list.`, tone: 'error' });
    }
  }

  #setModel(name: string): void {
    this.#model = name;
    this.#commit({ kind: 'result', id: this.#id(), text: `Set model to ${name}`, tone: 'dim' });
  }

  #exit(code: number): void {
    this.#phase = 'exited';
    this.#turn = null;
    this.#effects({ type: 'exit', code });
  }

  // ── turns ──────────────────────────────────────────────────────────────────

  /** `/bg N`: a job of N seconds starts, and a short turn says so; the job outlives the turn. */
  #startJob(arg: string | undefined): void {
    const ms = parseJobSeconds(arg);
    if (ms === null) {
      this.#commit({ kind: 'result', id: this.#id(), text: BG_USAGE, tone: 'error' });
      return;
    }
    this.#jobs.start(ms);
    this.#startTurn('', { steps: [{ think_ms: 300 }, { say: `Started a background job (${arg} s); it keeps running after this answer.` }] });
  }

  #startTurn(message: string, rule: ScenarioRule = selectRule(this.#options.scenario, message)): void {
    const verbs = this.#options.scenario.verbs;
    const turn = new Turn(rule, verbs[Math.floor(this.#random() * verbs.length)], {
      id: () => this.#id(),
      commit: (item) => this.#commit(item),
      isAllowed: (step) => this.#allowed.has(allowKey(step)),
    });
    this.#turn = turn;
    // Zero-length steps (a say with think_ms 0 before it) show at once, not one tick later.
    this.#runTurn(turn, 0);
  }

  #runTurn(turn: Turn, budgetMs: number): void {
    if (turn.run(budgetMs)) this.#turn = null;
  }

  #interrupt(): void {
    const turn = this.#turn;
    if (turn === null) return;
    if (turn.tool !== null && turn.tool.item.status !== 'done') turn.tool.item.status = 'interrupted';
    turn.end({ kind: 'result', id: this.#id(), text: 'Interrupted by user', tone: 'error' });
    this.#turn = null;
    this.#frozen = false;
  }

  // ── bookkeeping ────────────────────────────────────────────────────────────

  #id(): number {
    return this.#nextId++;
  }

  #commit(item: TranscriptItem): void {
    this.#committed = [...this.#committed, { ...item }];
    this.#options.history?.record(item, this.#turn?.tokens ?? 0, this.#model);
  }

  #notify(): void {
    this.#view = this.#buildView();
    for (const listener of this.#listeners) listener();
  }

  #buildView(): SessionView {
    return buildSessionView({
      epoch: this.#epoch, cwd: this.#options.cwd, committed: this.#committed, turn: this.#turn, realMs: this.#realMs,
      trustCursor: this.#phase === 'trust' ? this.#trustCursor : null, picker: this.#picker, models: this.#options.scenario.models,
      model: this.#model, input: this.#input, focused: this.#focused, ctrlCArmed: this.#ctrlCArmedUntil !== null, shortcutsOpen: this.#shortcutsOpen,
      jobsHint: this.#jobs.hint(),
    });
  }
}
