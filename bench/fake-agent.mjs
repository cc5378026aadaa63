#!/usr/bin/env node
/**
 * A fake coding agent that streams like a real one, for the daemon benchmark
 * (bench/daemon-model.mjs) and its spec (bench/fixtures/stream-agent.spec.json).
 *
 * Screen: Ink-style. Above, the transcript (answer text that scrolls); at the bottom a dynamic
 * block — spinner line, blank, round input box, hint — that Ink erases and redraws on every
 * frame. While a turn runs the block is repainted at 10 fps and each frame also prints about
 * 205 bytes of answer text above it (≈ 2 KB/s); between turns nothing is drawn (Ink is silent
 * at idle). Turns last `turnMs` (15 s) with `idleMs` (5 s) idle between.
 *
 * Every frame starts with an OSC 777 stamp (ignored by terminals) holding the writer's
 * CLOCK_MONOTONIC time in ns (`process.hrtime.bigint()`, the same clock in every process), so
 * a client can measure byte lag; the frames that change the state (turn start, turn end) add
 * `;k=busy` / `;k=idle`, so a client can measure state-event lag. Text is drawn from a seeded
 * PRNG: the same seed gives the same bytes (only the stamps differ).
 *
 * Two ways to run it:
 *  - alone, on its stdout (a real PTY child): `node bench/fake-agent.mjs [--turn-ms N]
 *    [--idle-ms N] [--offset-ms N] [--seed N] [--cols N] [--history-lines N] [--turns N]` (`--turns`: exit 0 after
 *    that many turns; default: forever);
 *  - many in one process (the benchmark): `new StreamAgent(options)` + `agent.tick(now)` from a
 *    10 fps timer, writing the returned strings wherever the PTY child reads them (a FIFO
 *    `cat`-ed by the PTY child: one small `cat` per session instead of one Node per session).
 */

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRandom } from './make-recording.mjs';

const WORDS = ('the a of to and in that is for it with as on be this by are from or an at not which have ' +
  'function value return state screen driver session buffer output render stream token cache spec ' +
  'test module import export error handler client server event queue timer update change line ' +
  'because while after before every should would could then when only also more than into').split(' ');
const VERBS = ['Thinking', 'Pondering', 'Streaming', 'Reasoning', 'Composing'];
const GLYPHS = ['·', '✢', '✳', '✶', '✻', '✽', '✶', '✳', '✢'];
/** Bytes of answer text per frame: 10 fps × 205 B ≈ 2 KB/s. */
const TEXT_BYTES_PER_FRAME = 205;
export const FRAME_MS = 100;

const stamp = (kind) => `\x1b]777;t=${process.hrtime.bigint()}${kind ? `;k=${kind}` : ''}\x07`;

export class StreamAgent {
  /**
   * @param {{cols?: number, turnMs?: number, idleMs?: number, offsetMs?: number, seed?: number, historyLines?: number}} options
   *   `offsetMs` shifts this agent's turn cycle (the benchmark staggers sessions with it);
   *   `historyLines` prints that many transcript lines first, so a fresh agent's scrollback is
   *   already as full as a long-running one's (default 0).
   */
  constructor(options = {}) {
    this.cols = options.cols ?? 120;
    this.turnMs = options.turnMs ?? 15_000;
    this.idleMs = options.idleMs ?? 5_000;
    this.offsetMs = options.offsetMs ?? 0;
    this.historyLines = options.historyLines ?? 0;
    this.random = createRandom(options.seed ?? 1);
    this.startedAt = null;
    this.busy = false;
    this.turnStartedAt = 0;
    this.turns = 0;
    this.frame = 0;
    this.tokens = 0;
    this.verb = VERBS[0];
    this.blockRows = 0;
    this.line = '';
  }

  /** The first screen: the earlier transcript (if any), a welcome line and the idle block. */
  open(now) {
    this.startedAt = now;
    let history = '';
    for (let i = 0; i < this.historyLines; i++) history += `\x1b[37m  ${this.#words(this.cols - 4)}\x1b[39m\r\n`;
    return `${stamp('idle')}\x1b[2J\x1b[H${history}\x1b[1m✻ Welcome to Stream Agent\x1b[22m\r\n\r\n${this.#drawBlock(null)}`;
  }

  /** One line of text of at most `width` characters. */
  #words(width) {
    let line = WORDS[Math.floor(this.random() * WORDS.length)];
    for (;;) {
      const word = WORDS[Math.floor(this.random() * WORDS.length)];
      if (line.length + word.length + 1 > width) return line;
      line += ` ${word}`;
    }
  }

  /** What to write at `now` (ms, any monotonic clock), or '' when nothing changes. */
  tick(now) {
    if (this.startedAt === null) return this.open(now);
    const cycle = this.turnMs + this.idleMs;
    // Each cycle starts with its idle spell, so a fresh agent first shows its prompt.
    const phase = (now - this.startedAt + this.offsetMs) % cycle;
    const shouldBeBusy = phase >= this.idleMs;
    if (shouldBeBusy && !this.busy) return this.#startTurn(now);
    if (!shouldBeBusy && this.busy) return this.#endTurn(now);
    if (!this.busy) return '';
    return this.#streamFrame(now);
  }

  #startTurn(now) {
    this.busy = true;
    this.turnStartedAt = now;
    this.tokens = 0;
    this.verb = VERBS[Math.floor(this.random() * VERBS.length)];
    return `${stamp('busy')}${this.#erase()}\x1b[1m> please continue with the next step\x1b[22m\r\n\r\n${this.#drawBlock(now)}`;
  }

  #endTurn(now) {
    this.busy = false;
    this.turns += 1;
    const seconds = Math.round((now - this.turnStartedAt) / 1000);
    const rest = this.line ? `⏺ ${this.line}\r\n` : '';
    this.line = '';
    return `${stamp('idle')}${this.#erase()}${rest}\r\n\x1b[2m✻ Worked for ${seconds}s\x1b[22m\r\n\r\n${this.#drawBlock(null)}`;
  }

  /** Erase the block, print the answer text that completed a line, redraw the block. */
  #streamFrame(now) {
    this.frame += 1;
    let text = '';
    let budget = TEXT_BYTES_PER_FRAME;
    const width = this.cols - 4;
    while (budget > 0) {
      const word = WORDS[Math.floor(this.random() * WORDS.length)];
      budget -= word.length + 1;
      this.tokens += 1;
      if (this.line.length + word.length + 1 > width) {
        text += `\x1b[37m  ${this.line}\x1b[39m\r\n`;
        this.line = word;
      } else {
        this.line = this.line ? `${this.line} ${word}` : word;
      }
    }
    return `${stamp()}${this.#erase()}${text}${this.#drawBlock(now)}`;
  }

  /** Ink's log-update: clear each line of the previous block, moving up. */
  #erase() {
    if (this.blockRows === 0) return '';
    const up = '\x1b[2K\x1b[1A'.repeat(this.blockRows - 1);
    return `${up}\x1b[2K\r`;
  }

  /** The dynamic block; `now` null = idle (no spinner). Leaves the cursor on its last row. */
  #drawBlock(now) {
    const inner = this.cols - 2;
    const rows = [];
    if (now !== null) {
      const glyph = GLYPHS[this.frame % GLYPHS.length];
      const seconds = Math.floor((now - this.turnStartedAt) / 1000);
      const k = (this.tokens / 1000).toFixed(1);
      rows.push(`\x1b[38;5;174m${glyph} ${this.verb}…\x1b[39m \x1b[2m(${seconds}s · ↓ ${k}k tokens · esc to interrupt)\x1b[22m`);
      rows.push('');
    }
    rows.push(`\x1b[2m╭${'─'.repeat(inner)}╮\x1b[22m`);
    rows.push(`\x1b[2m│\x1b[22m ❯ ${' '.repeat(inner - 3)}\x1b[2m│\x1b[22m`);
    rows.push(`\x1b[2m╰${'─'.repeat(inner)}╯\x1b[22m`);
    rows.push(now === null ? '  \x1b[2m? for shortcuts\x1b[22m' : '  \x1b[2mesc to interrupt\x1b[22m');
    this.blockRows = rows.length;
    return rows.join('\r\n');
  }
}

function parseArgs(argv) {
  const options = { turns: Infinity };
  const names = { '--turn-ms': 'turnMs', '--idle-ms': 'idleMs', '--offset-ms': 'offsetMs', '--seed': 'seed', '--cols': 'cols', '--turns': 'turns', '--history-lines': 'historyLines' };
  for (let i = 0; i < argv.length; i += 2) {
    const key = names[argv[i]];
    const value = Number(argv[i + 1]);
    if (!key || !Number.isFinite(value) || value < 0) {
      process.stderr.write(`fake-agent: bad option ${JSON.stringify(argv[i])} ${JSON.stringify(argv[i + 1])}; options: ${Object.keys(names).join(' ')} with a number >= 0\n`);
      process.exit(2);
    }
    options[key] = value;
  }
  return options;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2));
  const agent = new StreamAgent({ ...options, cols: options.cols ?? (process.stdout.columns || 120) });
  process.stdin.resume(); // keystrokes are read and ignored, as an agent busy with its turn would
  const timer = setInterval(() => {
    const out = agent.tick(performance.now());
    if (out) process.stdout.write(out);
    if (agent.turns >= options.turns) {
      clearInterval(timer);
      setTimeout(() => process.exit(0), 200);
    }
  }, FRAME_MS);
}
