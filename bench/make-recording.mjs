#!/usr/bin/env node
/**
 * Generates a large, realistic asciicast v2 recording of a Claude-Code-like TUI for benchmarks.
 *
 * Deterministic: a seeded PRNG and a virtual clock (no Date, no Math.random), so the same
 * arguments always give byte-identical files. The screen is 120×40 and follows Ink's rendering:
 * a dynamic region at the bottom is erased (`ESC[2K ESC[1A`…) and redrawn on every frame, while
 * finished output is printed above it once ("static" output). Turns repeat until the size target:
 *
 *   idle prompt → typing → spinner at 12–15 fps (`✻ Thinking… (12s · ↑ 3.2k tokens · esc to
 *   interrupt)`, glyphs `· ✢ ✳ ✶ ✻ ✽`, OSC 0 title with the glyph) → streamed markdown →
 *   tool blocks (`⏺ Bash(ls -la)` + `⎿` output) → sometimes a numbered approval modal between
 *   `─` rules → `✻ Worked for 42s` → idle prompt.
 *
 * Usage: node bench/make-recording.mjs [out.cast] [--mb 12] [--seed 42]
 * Default output: bench/.cache/large.cast (git-ignored).
 */

import { mkdirSync, openSync, writeSync, closeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const COLS = 120;
const ROWS = 40;
const ESC = '\x1b';
const ORANGE = `${ESC}[38;2;215;119;87m`;
const DIM = `${ESC}[2m`;
const BOLD = `${ESC}[1m`;
const RESET = `${ESC}[0m`;
const FG_RESET = `${ESC}[39m`;
const GREEN = `${ESC}[38;2;78;186;101m`;
const RED = `${ESC}[38;2;255;107;128m`;
const BLUE = `${ESC}[38;2;177;185;249m`;
const GLYPHS = ['·', '✢', '✳', '✶', '✻', '✽', '✻', '✶', '✳', '✢'];
const VERBS = ['Thinking', 'Pondering', 'Noodling', 'Brewing', 'Ebbing', 'Percolating', 'Conjuring', 'Reticulating'];
const WORDS = (
  'the function returns a promise that resolves once the parser has consumed every chunk so callers can read the ' +
  'screen state immediately and compare it against the expected frame while timers keep running in virtual time ' +
  'we should also update the tests to cover the edge case where the cursor sits below the trimmed content and the ' +
  'window becomes unmeasurable which must count as changed rather than stable because otherwise the idle transition ' +
  'fires too early configuration module driver snapshot terminal scheduler recording replay transport spec engine'
).split(' ');
const PROMPTS = [
  'fix the failing test in src/driver and explain what went wrong',
  'add a --tail-ms flag to the replay command',
  'refactor the screen snapshot code so the cursor row matches the trimmed lines',
  'why does the approval modal sometimes not get detected?',
  'write docs for the scheduler contract',
  'run the benchmarks and summarise the results',
];
const COMMANDS = [
  ['Bash', 'ls -la'],
  ['Bash', 'npm test -- --run src/driver'],
  ['Read', 'src/terminal/terminal-screen.ts'],
  ['Bash', 'git status --short'],
  ['Edit', 'src/driver/schedulers.ts'],
  ['Bash', 'rm -rf dist && npx tsc -p tsconfig.build.json'],
];

/** mulberry32: small, fast, deterministic. */
function createRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function parseArgs(argv) {
  const here = dirname(fileURLToPath(import.meta.url));
  const options = { out: resolve(here, '.cache/large.cast'), mb: 12, seed: 42 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--mb' || arg === '--seed') {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value <= 0) throw new Error(`${arg} needs a positive number, got ${argv[i]}`);
      options[arg.slice(2)] = value;
    } else if (arg.startsWith('--')) {
      throw new Error(`unknown option ${arg}; usage: node bench/make-recording.mjs [out.cast] [--mb 12] [--seed 42]`);
    } else {
      options.out = resolve(arg);
    }
  }
  return options;
}

/** Writes events as asciicast lines; times in seconds with at most 6 decimals. */
class CastWriter {
  constructor(path) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w', 0o600);
    this.bytes = 0;
    this.events = 0;
    this.outputBytes = 0;
    this.pending = [];
    this.line(JSON.stringify({ version: 2, width: COLS, height: ROWS, title: 'specterm benchmark: claude-like session', env: { TERM: 'xterm-256color', SHELL: '/bin/bash' } }));
  }
  line(text) {
    this.pending.push(text + '\n');
    this.bytes += Buffer.byteLength(text) + 1;
    if (this.pending.length >= 512) this.flush();
  }
  event(t, type, data) {
    this.events++;
    if (type === 'o') this.outputBytes += Buffer.byteLength(data);
    this.line(JSON.stringify([Math.round(t * 1e6) / 1e6, type, data]));
  }
  flush() {
    if (this.pending.length) writeSync(this.fd, this.pending.join(''));
    this.pending = [];
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

/** Wraps words into lines of at most `width` columns (all our text is single-width). */
function wrap(words, width) {
  const lines = [];
  let current = '';
  for (const word of words) {
    if (current.length + word.length + 1 > width && current) {
      lines.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) lines.push(current);
  return lines;
}

/** Ink's log-update: erase the previous dynamic output, print static text, redraw. */
class InkScreen {
  constructor(writer) {
    this.writer = writer;
    this.t = 0;
    this.previousLines = 0;
    this.title = '';
  }
  erase() {
    let out = '';
    for (let i = 0; i < this.previousLines; i++) out += `${ESC}[2K` + (i < this.previousLines - 1 ? `${ESC}[1A` : '');
    return this.previousLines ? out + `${ESC}[G` : '';
  }
  frame(dynamicLines, staticLines = [], title) {
    let out = '';
    if (title !== undefined && title !== this.title) {
      out += `${ESC}]0;${title}\x07`;
      this.title = title;
    }
    out += this.erase();
    if (staticLines.length) out += staticLines.join('\r\n') + '\r\n';
    out += dynamicLines.join('\r\n') + '\r\n';
    this.previousLines = dynamicLines.length + 1;
    this.writer.event(this.t, 'o', out);
  }
  advance(seconds) {
    this.t += seconds;
  }
}

const rule = () => `${DIM}${'─'.repeat(COLS)}${RESET}`;
const inputBox = (text, placeholder) => [rule(), text ? `❯ ${text}` : `❯ ${DIM}${placeholder}${RESET}`, rule(), `  ${DIM}? for shortcuts${RESET}`];
const formatTokens = (n) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));
const spinnerLine = (glyph, verb, seconds, tokens) =>
  `${ORANGE}${glyph}${FG_RESET} ${ORANGE}${verb}…${FG_RESET} ${DIM}(${seconds}s · ↑ ${formatTokens(tokens)} tokens · esc to interrupt)${RESET}`;

function generate({ out, mb, seed }) {
  const random = createRandom(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const between = (lo, hi) => lo + random() * (hi - lo);
  const writer = new CastWriter(out);
  const screen = new InkScreen(writer);
  const targetBytes = mb * 1024 * 1024;

  // Banner, printed once as static output.
  const inner = COLS - 2;
  const banner = [
    `${ORANGE}╭${'─'.repeat(inner)}╮${RESET}`,
    `${ORANGE}│${RESET} ${ORANGE}✻${RESET} Welcome to ${BOLD}Claude Code${RESET}!${' '.repeat(inner - 27)}${ORANGE}│${RESET}`,
    `${ORANGE}│${RESET}${' '.repeat(inner)}${ORANGE}│${RESET}`,
    `${ORANGE}│${RESET}   ${DIM}/help for help, /status for your current setup${RESET}${' '.repeat(inner - 49)}${ORANGE}│${RESET}`,
    `${ORANGE}│${RESET}   ${DIM}cwd: /home/dev/specterm${RESET}${' '.repeat(inner - 26)}${ORANGE}│${RESET}`,
    `${ORANGE}╰${'─'.repeat(inner)}╯${RESET}`,
    '',
    ` ${DIM}Tips for getting started:${RESET}`,
    '',
    ` 1. Ask Claude to create a new app or clone a repository`,
    ` 2. Use Claude to help with file analysis, editing, bash commands and git`,
    '',
  ];
  writer.event(0, 'o', `${ESC}[?2004h${ESC}[?1004h${ESC}[2J${ESC}[H`);
  screen.advance(0.12);
  screen.frame(['', ...inputBox('', 'Try "refactor <filepath>"')], banner, 'Claude Code');

  let turn = 0;
  while (writer.bytes < targetBytes) {
    turn++;
    const turnStart = screen.t;
    // Idle, then typing with per-key input events and echo frames.
    screen.advance(between(1, 4));
    const prompt = pick(PROMPTS);
    let typed = '';
    for (const ch of prompt) {
      typed += ch;
      writer.event(screen.t, 'i', ch);
      screen.advance(between(0.002, 0.006));
      screen.frame(['', ...inputBox(typed, '')]);
      screen.advance(between(0.04, 0.12));
    }
    writer.event(screen.t, 'i', '\r');
    screen.advance(0.05);

    // Working: spinner at 12–15 fps, streamed prose and tool calls.
    const verb = pick(VERBS);
    const busyStart = screen.t;
    let tokens = Math.floor(between(100, 900));
    let glyphIndex = 0;
    const spin = (extraDynamic = [], staticLines = []) => {
      const seconds = Math.floor(screen.t - busyStart);
      const glyph = GLYPHS[glyphIndex++ % GLYPHS.length];
      tokens += Math.floor(between(5, 40));
      screen.frame([...extraDynamic, '', spinnerLine(glyph, verb, seconds, tokens), '', ...inputBox('', 'Type a message…')], staticLines, `${glyph} Claude Code`);
      screen.advance(1 / between(12, 15));
    };
    const spinFor = (seconds) => {
      const end = screen.t + seconds;
      while (screen.t < end) spin();
    };
    let pendingStatic = [`${BLUE}>${RESET} ${prompt}`, ''];
    spin([], pendingStatic);
    pendingStatic = [];
    spinFor(between(1, 3));

    const steps = 2 + Math.floor(random() * 4);
    for (let step = 0; step < steps; step++) {
      // Streamed markdown paragraph: grows in the dynamic region, then becomes static.
      const words = Array.from({ length: 30 + Math.floor(random() * 90) }, () => pick(WORDS));
      words.splice(Math.floor(random() * words.length), 0, `${BOLD}important:${RESET}`);
      let shown = 0;
      while (shown < words.length) {
        shown = Math.min(words.length, shown + 1 + Math.floor(random() * 4));
        const lines = wrap(words.slice(0, shown), COLS - 4).map((l, i) => (i === 0 ? `${ORANGE}⏺${RESET} ${l}` : `  ${l}`));
        spin([...lines.slice(-8), '']);
      }
      const done = wrap(words, COLS - 4).map((l, i) => (i === 0 ? `${ORANGE}⏺${RESET} ${l}` : `  ${l}`));
      spin([], [...done, '']);

      // A tool call, sometimes behind an approval modal.
      const [tool, arg] = pick(COMMANDS);
      const header = `${GREEN}⏺${RESET} ${BOLD}${tool}${RESET}(${arg})`;
      if (random() < 0.45) {
        const modal = [
          rule(),
          ` ${BOLD}${tool === 'Bash' ? 'Bash command' : `${tool} file`}${RESET}`,
          '',
          `   ${arg}`,
          `   ${DIM}${pick(['List files', 'Run the driver tests', 'Rebuild', 'Inspect changes'])}${RESET}`,
          '',
          ' Do you want to proceed?',
          ` ${BLUE}❯${RESET} ${BLUE}1. Yes${RESET}`,
          `   2. Yes, and don't ask again for ${tool === 'Bash' ? arg.split(' ')[0] : tool.toLowerCase()} commands in /home/dev/specterm`,
          `   3. No, and tell Claude what to do differently (${BOLD}esc${RESET})`,
          rule(),
        ];
        screen.frame(modal, [header], `✋ Claude Code`);
        screen.advance(between(1.5, 6));
        writer.event(screen.t, 'i', '1');
        screen.advance(0.03);
        spin();
      } else {
        spin([], [header]);
      }
      spinFor(between(0.5, 2.5));
      const outputLines = Array.from({ length: 3 + Math.floor(random() * 15) }, (_, i) =>
        i === 0 ? `  ⎿  ${DIM}total ${Math.floor(between(8, 200))}${RESET}` : `     ${DIM}${random() < 0.1 ? `${RED}-rw-------${FG_RESET}` : '-rw-r--r--'}  1 dev dev ${String(Math.floor(between(100, 99999))).padStart(6)} ${pick(WORDS)}.${pick(['ts', 'md', 'json', 'mjs'])}${RESET}`,
      );
      spin([], [...outputLines, '']);
      spinFor(between(0.5, 3));
    }

    // Completion footer, then the idle prompt.
    const worked = Math.max(1, Math.round(screen.t - turnStart));
    screen.frame(['', ...inputBox('', 'Type a message…')], [`${DIM}✻ Worked for ${worked}s${RESET}`, ''], 'Claude Code');
  }
  writer.close();
  return { out, bytes: writer.bytes, events: writer.events, outputBytes: writer.outputBytes, turns: turn, durationS: screen.t };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  try {
    const result = generate(parseArgs(process.argv.slice(2)));
    console.log(
      `wrote ${result.out}: ${(result.bytes / 1048576).toFixed(2)} MB, ${result.events} events, ${(result.outputBytes / 1048576).toFixed(2)} MB output, ${result.turns} turns, ${result.durationS.toFixed(1)} s recorded`,
    );
  } catch (error) {
    console.error(`make-recording: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

export { generate, createRandom };
