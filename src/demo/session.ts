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
import { DEFAULT_TOOL_RUN_MS, DEFAULT_WPM, selectRule, type ModelInfo, type Scenario, type ScenarioRule, type ToolStep } from './scenario.js';
import { spinnerGlyph, type AssistantItem, type SpinnerView, type ToolItem, type TranscriptItem } from './transcript.js';

/** The product name shown everywhere ("tell Demo Agent what to do differently"). */
export const AGENT_NAME = 'Demo Agent';
/** Real milliseconds per animation frame: the spinner repaints at ~10 fps. */
export const FRAME_MS = 100;
/** Window for the second Ctrl-C at idle (real time, like Claude Code). */
export const CTRL_C_EXIT_WINDOW_MS = 2000;
/** Exit code after a double Ctrl-C (128 + SIGINT, what a shell reports for Ctrl-C). */
export const EXIT_CODE_CTRL_C = 130;
/** Exit code when the user declines folder trust. */
export const EXIT_CODE_UNTRUSTED = 1;
/** Token counter growth while thinking or running a tool (per virtual second). */
const THINK_TOKENS_PER_SECOND = 400;

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
}

/** Side effects the host performs. */
export type SessionEffect =
  | { type: 'exit'; code: number }
  | { type: 'trust-accepted' }
  | { type: 'clear-screen' };

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

interface SayProgress {
  paragraphs: string[][];
  perWordMs: number;
  totalWords: number;
  shown: number;
  paragraph: number;
  item: AssistantItem;
}

interface ToolProgress {
  step: ToolStep;
  item: ToolItem;
  phase: 'approval' | 'running';
  cursor: number;
}

interface Turn {
  rule: ScenarioRule;
  stepIndex: number;
  stepStarted: boolean;
  stepMs: number;
  elapsedMs: number;
  tokens: number;
  verb: string;
  direction: '↑' | '↓';
  live: TranscriptItem[];
  previousWasSay: boolean;
  say: SayProgress | null;
  tool: ToolProgress | null;
}

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

function approvalTitle(tool: string): string {
  const titles: Record<string, string> = { Bash: 'Bash command', Edit: 'Edit file', Write: 'Create file', Read: 'Read file' };
  return titles[tool] ?? 'Tool use';
}

/** The session allow-list key for "don't ask again": `Bash:npm` for shell commands, else the tool name. */
function allowKey(step: ToolStep): string {
  return step.tool === 'Bash' ? `Bash:${step.command.trim().split(/\s+/)[0]}` : step.tool;
}

function approvalOptions(step: ToolStep): string[] {
  const always = step.tool === 'Bash'
    ? `Yes, and don't ask again for ${step.command.trim().split(/\s+/)[0]} commands`
    : `Yes, and don't ask again for ${step.tool} this session`;
  return ['Yes', always, `No, and tell ${AGENT_NAME} what to do differently (esc)`];
}

const TRUST_OPTIONS = ['Yes, proceed', 'No, exit'];

const HELP_LINES = [
  `${AGENT_NAME} — a scripted coding-agent TUI (no network, no AI).`,
  'Commands: /help  /model [name]  /clear  /exit',
  'Keys: Enter send · Ctrl-J newline · Esc or Ctrl-C interrupt · Ctrl-C twice to exit',
];

/** The Demo Agent state machine. */
export class DemoSession {
  readonly #options: DemoSessionOptions;
  readonly #random: () => number;
  readonly #listeners = new Set<() => void>();
  readonly #effects: (effect: SessionEffect) => void;
  readonly #allowed = new Set<string>();
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
    const turn = this.#turn;
    if (turn !== null) {
      const virtualMs = realMs / this.#options.speed;
      turn.elapsedMs += virtualMs;
      if (turn.tool?.phase !== 'approval') this.#runSteps(virtualMs);
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
      else if (this.#turn?.tool?.phase === 'approval') this.#handleApprovalKey(event);
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
    const choice = this.#menuChoice(event, TRUST_OPTIONS.length, this.#trustCursor);
    if (choice === 'up' || choice === 'down') {
      this.#trustCursor = this.#moveCursor(this.#trustCursor, choice, TRUST_OPTIONS.length);
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
    const choice = this.#menuChoice(event, models.length, picker.cursor);
    if (choice === 'up' || choice === 'down') {
      picker.cursor = this.#moveCursor(picker.cursor, choice, models.length);
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
    const choice = this.#menuChoice(event, 3, tool.cursor);
    if (choice === 'up' || choice === 'down') {
      tool.cursor = this.#moveCursor(tool.cursor, choice, 3);
    } else if (choice === 'interrupt') {
      this.#interrupt();
    } else if (choice === 'cancel' || choice === 3) {
      tool.item.status = 'declined';
      this.#commitLive(turn);
      this.#commit({ kind: 'result', id: this.#id(), text: 'User declined', tone: 'error' });
      this.#turn = null;
    } else if (choice === 1 || choice === 2) {
      if (choice === 2) this.#allowed.add(allowKey(tool.step));
      tool.phase = 'running';
      tool.item.status = 'running';
      turn.stepMs = 0;
    }
  }

  /** Shared menu keys: digits choose at once, arrows move, Enter confirms, Esc cancels. */
  #menuChoice(event: KeyEvent, count: number, cursor: number): number | 'up' | 'down' | 'cancel' | 'interrupt' | null {
    if (event.type === 'text') {
      const digit = Number.parseInt(event.text[0], 10);
      return digit >= 1 && digit <= count ? digit : null;
    }
    if (event.type !== 'key') return null;
    switch (event.name) {
      case 'up': return 'up';
      case 'down': return 'down';
      case 'enter': return cursor + 1;
      case 'escape': return 'cancel';
      case 'ctrl-c': return 'interrupt';
      default: return null;
    }
  }

  #moveCursor(cursor: number, direction: 'up' | 'down', count: number): number {
    return direction === 'up' ? Math.max(0, cursor - 1) : Math.min(count - 1, cursor + 1);
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

  #startTurn(message: string): void {
    const verbs = this.#options.scenario.verbs;
    this.#turn = {
      rule: selectRule(this.#options.scenario, message),
      stepIndex: 0,
      stepStarted: false,
      stepMs: 0,
      elapsedMs: 0,
      tokens: 0,
      verb: verbs[Math.floor(this.#random() * verbs.length)],
      direction: '↑',
      live: [],
      previousWasSay: false,
      say: null,
      tool: null,
    };
    // Zero-length steps (a say with think_ms 0 before it) show at once, not one tick later.
    this.#runSteps(0);
  }

  #interrupt(): void {
    const turn = this.#turn;
    if (turn === null) return;
    if (turn.tool !== null && turn.tool.item.status !== 'done') turn.tool.item.status = 'interrupted';
    this.#commitLive(turn);
    this.#commit({ kind: 'result', id: this.#id(), text: 'Interrupted by user', tone: 'error' });
    this.#turn = null;
    this.#frozen = false;
  }

  /** Runs scenario steps with `budgetMs` of virtual time; stops at an approval or when time runs out. */
  #runSteps(budgetMs: number): void {
    let budget = budgetMs;
    for (;;) {
      const turn = this.#turn;
      if (turn === null) return;
      const step = turn.rule.steps[turn.stepIndex];
      if (step === undefined) {
        this.#commitLive(turn);
        this.#commit({ kind: 'worked', id: this.#id(), seconds: Math.max(1, Math.round(turn.elapsedMs / 1000)) });
        this.#turn = null;
        return;
      }
      const firstRun = !turn.stepStarted;
      turn.stepStarted = true;
      let result: { done: boolean; budget: number };
      if ('think_ms' in step) {
        // A think step may name the verb; it then stays for the rest of the turn.
        if (firstRun && step.verb !== undefined) turn.verb = step.verb;
        turn.direction = '↑';
        const use = Math.min(budget, step.think_ms - turn.stepMs);
        turn.stepMs += use;
        turn.tokens += (use / 1000) * THINK_TOKENS_PER_SECOND;
        result = { done: turn.stepMs >= step.think_ms, budget: budget - use };
      } else if ('say' in step) {
        result = this.#runSay(turn, step.say, step.wpm ?? DEFAULT_WPM, firstRun, budget);
      } else if ('tool' in step) {
        result = this.#runTool(turn, step, firstRun, budget);
      } else {
        this.#commitLive(turn);
        this.#commit({ kind: 'result', id: this.#id(), text: `API Error: ${step.error}`, tone: 'error' });
        this.#turn = null;
        return;
      }
      if (!result.done) return;
      budget = result.budget;
      turn.previousWasSay = 'say' in step;
      turn.stepIndex++;
      turn.stepStarted = false;
      turn.stepMs = 0;
      turn.say = null;
      turn.tool = null;
    }
  }

  #runSay(turn: Turn, text: string, wpm: number, firstRun: boolean, budget: number): { done: boolean; budget: number } {
    if (firstRun || turn.say === null) {
      const paragraphs = text.split(/\n\s*\n/).map((p) => p.trim().match(/\S+\s*/g) ?? []).filter((p) => p.length > 0);
      const item: AssistantItem = { kind: 'assistant', id: this.#id(), text: '', continuation: turn.previousWasSay };
      turn.live = [item];
      turn.say = { paragraphs, perWordMs: 60_000 / wpm, totalWords: paragraphs.flat().length, shown: 0, paragraph: 0, item };
    }
    const say = turn.say;
    turn.direction = '↓';
    turn.stepMs += budget;
    const due = Math.min(say.totalWords, Math.floor(turn.stepMs / say.perWordMs) + 1);
    while (say.shown < due) {
      let offset = say.shown;
      let p = 0;
      while (offset >= say.paragraphs[p].length) offset -= say.paragraphs[p++].length;
      if (p !== say.paragraph) {
        // A finished paragraph becomes transcript; the next one streams without a bullet.
        this.#commitLive(turn);
        say.paragraph = p;
        say.item = { kind: 'assistant', id: this.#id(), text: '', continuation: true };
        turn.live = [say.item];
      }
      const word = say.paragraphs[p][offset];
      say.item.text += word;
      turn.tokens += Math.max(1, Math.round(word.trim().length / 4));
      say.shown++;
    }
    const totalMs = say.totalWords * say.perWordMs;
    if (turn.stepMs < totalMs) return { done: false, budget: 0 };
    say.item.text = say.item.text.trimEnd();
    this.#commitLive(turn);
    return { done: true, budget: turn.stepMs - totalMs };
  }

  #runTool(turn: Turn, step: ToolStep, firstRun: boolean, budget: number): { done: boolean; budget: number } {
    if (firstRun || turn.tool === null) {
      const item: ToolItem = { kind: 'tool', id: this.#id(), name: step.tool, command: step.command, status: 'pending', output: [] };
      turn.live = [item];
      const needsApproval = step.approval === true && !this.#allowed.has(allowKey(step));
      turn.tool = { step, item, phase: needsApproval ? 'approval' : 'running', cursor: 0 };
      if (needsApproval) return { done: false, budget: 0 };
      item.status = 'running';
    }
    const tool = turn.tool;
    if (tool.phase === 'approval') return { done: false, budget: 0 };
    turn.direction = '↑';
    const runMs = step.run_ms ?? DEFAULT_TOOL_RUN_MS;
    const use = Math.min(budget, runMs - turn.stepMs);
    turn.stepMs += use;
    turn.tokens += (use / 1000) * (THINK_TOKENS_PER_SECOND / 4);
    if (turn.stepMs < runMs) return { done: false, budget: 0 };
    tool.item.status = 'done';
    tool.item.output = [...(step.output ?? [])];
    this.#commitLive(turn);
    return { done: true, budget: budget - use };
  }

  // ── bookkeeping ────────────────────────────────────────────────────────────

  #id(): number {
    return this.#nextId++;
  }

  #commit(item: TranscriptItem): void {
    this.#committed = [...this.#committed, { ...item }];
  }

  #commitLive(turn: Turn): void {
    for (const item of turn.live) this.#commit(item);
    turn.live = [];
  }

  #notify(): void {
    this.#view = this.#buildView();
    for (const listener of this.#listeners) listener();
  }

  #buildView(): SessionView {
    const turn = this.#turn;
    const frame = Math.floor(this.#realMs / FRAME_MS);
    const awaitingApproval = turn?.tool?.phase === 'approval';
    const spinner: SpinnerView | null = turn !== null && !awaitingApproval
      ? {
          glyph: spinnerGlyph(frame),
          verb: turn.verb,
          elapsedSeconds: Math.floor(turn.elapsedMs / 1000),
          tokens: turn.tokens,
          direction: turn.direction,
        }
      : null;
    let modal: ModalView | null = null;
    if (this.#phase === 'trust') {
      modal = { kind: 'trust', cwd: this.#options.cwd, cursor: this.#trustCursor, options: TRUST_OPTIONS };
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
    } else if (this.#picker !== null) {
      modal = { kind: 'picker', models: this.#options.scenario.models, active: this.#model, cursor: this.#picker.cursor };
    }
    let left = '? for shortcuts';
    if (!this.#focused) left = '(input paused — terminal not focused)';
    else if (this.#ctrlCArmedUntil !== null) left = 'Press Ctrl-C again to exit';
    return {
      epoch: this.#epoch,
      cwd: this.#options.cwd,
      committed: this.#committed,
      live: turn === null ? [] : turn.live.map((item) => ({ ...item })),
      spinner,
      input: this.#input,
      showInput: modal === null,
      modal,
      hint: { left, right: this.#model },
      shortcutsOpen: this.#shortcutsOpen,
      title: `${spinner === null ? '✳' : spinner.glyph} ${AGENT_NAME}`,
    };
  }
}
