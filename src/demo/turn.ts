/**
 * One turn of the Demo Agent: the steps of the scenario rule its message selected (think, say,
 * tool, error), run on a budget of virtual time. What a step finishes goes into the session's
 * transcript through {@link TurnHost}; what is still under way (the streaming paragraph, the
 * running tool) stays in `live` until then. A tool that needs consent stops the turn in its
 * `approval` phase until the session answers it.
 * @module
 */
import { DEFAULT_TOOL_RUN_MS, DEFAULT_WPM, type ScenarioRule, type ToolStep } from './scenario.js';
import type { AssistantItem, ToolItem, TranscriptItem } from './transcript.js';

/** Token counter growth while thinking (a running tool grows it at a quarter of this), per virtual second. */
const THINK_TOKENS_PER_SECOND = 400;

/** What a turn needs from its session: transcript ids and commits, and the "don't ask again" answers. */
export interface TurnHost {
  id(): number;
  commit(item: TranscriptItem): void;
  isAllowed(step: ToolStep): boolean;
}

interface SayProgress {
  paragraphs: string[][];
  perWordMs: number;
  totalWords: number;
  shown: number;
  paragraph: number;
  item: AssistantItem;
}

export interface ToolProgress {
  step: ToolStep;
  item: ToolItem;
  phase: 'approval' | 'running';
  cursor: number;
}

/** The "don't ask again" key of a tool step: a shell command by its program, other tools by name. */
export function allowKey(step: ToolStep): string {
  return step.tool === 'Bash' ? `Bash:${step.command.trim().split(/\s+/)[0]}` : step.tool;
}

export class Turn {
  elapsedMs = 0;
  tokens = 0;
  verb: string;
  direction: '↑' | '↓' = '↑';
  /** Items of the step under way, shown below the transcript. */
  live: TranscriptItem[] = [];
  tool: ToolProgress | null = null;
  readonly #rule: ScenarioRule;
  readonly #host: TurnHost;
  #stepIndex = 0;
  #stepStarted = false;
  #stepMs = 0;
  #previousWasSay = false;
  #say: SayProgress | null = null;

  constructor(rule: ScenarioRule, verb: string, host: TurnHost) {
    this.#rule = rule;
    this.verb = verb;
    this.#host = host;
  }

  /** True while a tool waits for the person's consent. */
  get awaitingApproval(): boolean {
    return this.tool?.phase === 'approval';
  }

  /**
   * Runs steps with `budgetMs` of virtual time; stops at an approval or when time runs out.
   * @returns true when the turn ended (its last step done, or an error step).
   */
  run(budgetMs: number): boolean {
    let budget = budgetMs;
    for (;;) {
      const step = this.#rule.steps[this.#stepIndex];
      if (step === undefined) {
        this.commitLive();
        this.#host.commit({ kind: 'worked', id: this.#host.id(), seconds: Math.max(1, Math.round(this.elapsedMs / 1000)) });
        return true;
      }
      const firstRun = !this.#stepStarted;
      this.#stepStarted = true;
      let result: { done: boolean; budget: number };
      if ('think_ms' in step) {
        // A think step may name the verb; it then stays for the rest of the turn.
        if (firstRun && step.verb !== undefined) this.verb = step.verb;
        this.direction = '↑';
        const use = Math.min(budget, step.think_ms - this.#stepMs);
        this.#stepMs += use;
        this.tokens += (use / 1000) * THINK_TOKENS_PER_SECOND;
        result = { done: this.#stepMs >= step.think_ms, budget: budget - use };
      } else if ('say' in step) {
        result = this.#runSay(step.say, step.wpm ?? DEFAULT_WPM, firstRun, budget);
      } else if ('tool' in step) {
        result = this.#runTool(step, firstRun, budget);
      } else {
        this.end({ kind: 'result', id: this.#host.id(), text: `API Error: ${step.error}`, tone: 'error' });
        return true;
      }
      if (!result.done) return false;
      budget = result.budget;
      this.#previousWasSay = 'say' in step;
      this.#stepIndex++;
      this.#stepStarted = false;
      this.#stepMs = 0;
      this.#say = null;
      this.tool = null;
    }
  }

  /** The person's consent: the waiting tool runs from now. */
  approve(): void {
    if (!this.tool) return;
    this.tool.phase = 'running';
    this.tool.item.status = 'running';
    this.#stepMs = 0;
  }

  /** Ends the turn: what is under way goes to the transcript, then `result`. */
  end(result: Extract<TranscriptItem, { kind: 'result' }>): void {
    this.commitLive();
    this.#host.commit(result);
  }

  /** Moves the items under way into the transcript. */
  commitLive(): void {
    for (const item of this.live) this.#host.commit(item);
    this.live = [];
  }

  #runSay(text: string, wpm: number, firstRun: boolean, budget: number): { done: boolean; budget: number } {
    if (firstRun || this.#say === null) {
      const paragraphs = text.split(/\n\s*\n/).map((p) => p.trim().match(/\S+\s*/g) ?? []).filter((p) => p.length > 0);
      const item: AssistantItem = { kind: 'assistant', id: this.#host.id(), text: '', continuation: this.#previousWasSay };
      this.live = [item];
      this.#say = { paragraphs, perWordMs: 60_000 / wpm, totalWords: paragraphs.flat().length, shown: 0, paragraph: 0, item };
    }
    const say = this.#say;
    this.direction = '↓';
    this.#stepMs += budget;
    const due = Math.min(say.totalWords, Math.floor(this.#stepMs / say.perWordMs) + 1);
    while (say.shown < due) {
      let offset = say.shown;
      let p = 0;
      while (offset >= say.paragraphs[p].length) offset -= say.paragraphs[p++].length;
      if (p !== say.paragraph) {
        // A finished paragraph becomes transcript; the next one streams without a bullet.
        this.commitLive();
        say.paragraph = p;
        say.item = { kind: 'assistant', id: this.#host.id(), text: '', continuation: true };
        this.live = [say.item];
      }
      const word = say.paragraphs[p][offset];
      say.item.text += word;
      this.tokens += Math.max(1, Math.round(word.trim().length / 4));
      say.shown++;
    }
    const totalMs = say.totalWords * say.perWordMs;
    if (this.#stepMs < totalMs) return { done: false, budget: 0 };
    say.item.text = say.item.text.trimEnd();
    this.commitLive();
    return { done: true, budget: this.#stepMs - totalMs };
  }

  #runTool(step: ToolStep, firstRun: boolean, budget: number): { done: boolean; budget: number } {
    if (firstRun || this.tool === null) {
      const item: ToolItem = { kind: 'tool', id: this.#host.id(), name: step.tool, command: step.command, status: 'pending', output: [] };
      this.live = [item];
      const needsApproval = step.approval === true && !this.#host.isAllowed(step);
      this.tool = { step, item, phase: needsApproval ? 'approval' : 'running', cursor: 0 };
      if (needsApproval) return { done: false, budget: 0 };
      item.status = 'running';
    }
    const tool = this.tool;
    if (tool.phase === 'approval') return { done: false, budget: 0 };
    this.direction = '↑';
    const runMs = step.run_ms ?? DEFAULT_TOOL_RUN_MS;
    const use = Math.min(budget, runMs - this.#stepMs);
    this.#stepMs += use;
    this.tokens += (use / 1000) * (THINK_TOKENS_PER_SECOND / 4);
    if (this.#stepMs < runMs) return { done: false, budget: 0 };
    tool.item.status = 'done';
    tool.item.output = [...(step.output ?? [])];
    this.commitLive();
    return { done: true, budget: budget - use };
  }
}
