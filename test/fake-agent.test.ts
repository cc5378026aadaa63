/**
 * Process-level tests of the scripted fake agent: a real PTY (`@lydell/node-pty`) and a real
 * `@xterm/headless` emulator, no driver in between. They pin the behaviour the driver's
 * integration tests rely on, and check that `test/fixtures/specs/fake-agent.json` matches the
 * screens the agent actually draws.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliSpecV4, Condition, SectionDef } from '../src/core/spec/types.js';
import { isSpawnPlanError, planSpawn } from '../src/driver/spawn-plan.js';

const { Terminal } = xtermHeadless;
const here = path.dirname(fileURLToPath(import.meta.url));
const AGENT = path.join(here, 'fixtures/agents/fake-agent.mjs');
const SPEC_PATH = path.join(here, 'fixtures/specs/fake-agent.json');
/** Real processes on a loaded 2-core CI box: generous, never relied on for ordering. */
const WAIT_MS = 10_000;

interface Session {
  write(data: string): void;
  screen(): string;
  /** Cursor position in the viewport, 0-based. */
  cursor(): { row: number; col: number };
  raw(): string;
  log(): string[];
  received(): string[];
  waitFor(pred: (screen: string) => boolean, what: string): Promise<string>;
  waitForLog(pred: (lines: string[]) => boolean, what: string): Promise<string[]>;
  /** Waits until the cursor sits at `at` (a redraw can reach the emulator in several chunks). */
  waitForCursor(at: { row: number; col: number }, what: string): Promise<{ row: number; col: number }>;
  exited: Promise<{ exitCode: number; signal?: number }>;
  resize(cols: number, rows: number): void;
  kill(): void;
}

const sessions: Session[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const s of sessions.splice(0)) s.kill();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Launches the agent directly, or through `planSpawn` with the fixture spec when `viaPlan` is set. */
function start(args: string[] = [], size = { cols: 80, rows: 24 }, viaPlan = false): Session {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-fake-agent-')));
  dirs.push(dir);
  const logFile = path.join(dir, 'agent.log');
  const term = new Terminal({ cols: size.cols, rows: size.rows, allowProposedApi: true, scrollback: 1000 });
  let raw = '';
  const agentArgs = [AGENT, '--log', logFile, '--startup-ms', '50', '--work-ms', '400', ...args];
  let launch = { file: process.execPath, args: agentArgs, cwd: dir, env: { ...process.env, TERM: 'xterm-256color' } as Record<string, string> };
  if (viaPlan) {
    const spec = JSON.parse(fs.readFileSync(SPEC_PATH, 'utf8')) as CliSpecV4;
    const plan = planSpawn({ spec, workingDir: dir, extraArgs: agentArgs, cols: size.cols, rows: size.rows });
    if (isSpawnPlanError(plan)) throw new Error(plan.message);
    launch = plan;
  }
  const child = pty.spawn(launch.file, launch.args, { cols: size.cols, rows: size.rows, cwd: launch.cwd, env: launch.env });
  let alive = true;
  child.onData((d) => { raw += d; term.write(d); });
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => child.onExit((e) => { alive = false; resolve(e); }));
  const screen = (): string => {
    const buf = term.buffer.active;
    const lines: string[] = [];
    // Right-trimmed rows, like the engine's snapshot (spec-format §9.1): a written space counts as
    // content for xterm's own trimming.
    for (let y = 0; y < term.rows; y++) lines.push((buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '').replace(/\s+$/, ''));
    return lines.join('\n').replace(/\n+$/, '');
  };
  const log = (): string[] => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : []);
  const poll = async <T>(get: () => T, ok: (v: T) => boolean, what: string): Promise<T> => {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      // Let the emulator finish parsing queued writes before reading it.
      await new Promise<void>((r) => term.write('', r));
      const v = get();
      if (ok(v)) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${screen()}\nlog:\n${log().join('\n')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const s: Session = {
    write: (d) => child.write(d),
    screen,
    cursor: () => ({ row: term.buffer.active.cursorY, col: term.buffer.active.cursorX }),
    raw: () => raw,
    log,
    received: () => log().filter((l) => l.startsWith('RECEIVED:')).map((l) => JSON.parse(l.slice('RECEIVED:'.length)) as string),
    waitFor: (pred, what) => poll(screen, pred, what),
    waitForLog: (pred, what) => poll(log, pred, what),
    waitForCursor: (at, what) => poll(() => s.cursor(), (c) => c.row === at.row && c.col === at.col, what),
    exited,
    resize: (c, r) => { child.resize(c, r); term.resize(c, r); },
    kill: () => { if (alive) child.kill(); term.dispose(); },
  };
  sessions.push(s);
  return s;
}

const isIdle = (s: string) => /(?:^|\n)❯(?: .*)?\n─+\n {2}\? for shortcuts$/.test(s);
const hasModal = (s: string) => s.includes('Do you want to proceed?');

describe('fake agent in a real PTY', () => {
  it('draws the banner and the input box, with the cursor on the prompt line', async () => {
    const s = start();
    const screen = await s.waitFor(isIdle, 'the idle prompt');
    expect(screen.split('\n')[0]).toBe('Fake Agent v1.0');
    expect(screen).toMatch(/\n─{80}\n❯\n─{80}\n {2}\? for shortcuts$/);
    const promptRow = screen.split('\n').indexOf('❯');
    // The agent parks the cursor after drawing (DECRC at the end of its redraw); under load the
    // text and the restore can arrive in separate PTY reads, so wait for the cursor itself.
    await s.waitForCursor({ row: promptRow, col: 2 }, 'the cursor on the empty prompt');
    s.write('abc');
    await s.waitFor((x) => x.includes('❯ abc'), 'the echo');
    expect(await s.waitForCursor({ row: promptRow, col: 5 }, 'the cursor after the echo')).toEqual({ row: promptRow, col: 5 });
  });

  it('echoes typed text, logs one RECEIVED per Enter, works with a spinner and returns to the prompt', async () => {
    const s = start(['--title']);
    await s.waitFor(isIdle, 'the idle prompt');
    s.write('hello wörld');
    await s.waitFor((x) => x.includes('❯ hello wörld'), 'the echo');
    s.write('\x7f\x7fld');
    await s.waitFor((x) => x.includes('❯ hello wörld'.slice(0, -2) + 'ld'), 'backspace and retype');
    s.write('\r');
    await s.waitFor((x) => /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Working… \(\d+s · esc to interrupt\)/.test(x), 'the spinner');
    const done = await s.waitFor((x) => /✻ Worked for \d+s/.test(x) && isIdle(x), 'the done footer');
    expect(done).toContain('● Done: hello wörld');
    expect(done).toContain('> hello wörld');
    expect(s.received()).toEqual(['hello wörld']);
    expect(s.raw()).toContain('\x1b]0;✳ Fake Agent\x07');
    // An empty Enter at the prompt submits nothing.
    s.write('\r');
    s.write('again\r');
    await s.waitForLog((l) => l.some((x) => x === 'RECEIVED:"again"'), 'the second message');
    expect(s.received()).toEqual(['hello wörld', 'again']);
  });

  it('echoes a long single-write body across wrapped rows and receives it whole', async () => {
    const s = start();
    await s.waitFor(isIdle, 'the idle prompt');
    const body = Array.from({ length: 70 }, (_, i) => `word${i}`).join(' ') + ' END';
    s.write(body);
    await s.waitFor((x) => x.replace(/\n/g, '').includes(body.slice(-40)), 'the wrapped echo');
    expect(s.screen().replace(/\n/g, '')).toContain('❯ ' + body.slice(0, 40));
    s.write('\r');
    await s.waitForLog((l) => l.some((x) => x.startsWith('RECEIVED:')), 'the message');
    expect(s.received()).toEqual([body]);
  });

  it('shows the approval modal; digit 1 answers it at once and the turn completes', async () => {
    const s = start();
    await s.waitFor(isIdle, 'the idle prompt');
    s.write('please approve this\r');
    const modal = await s.waitFor(hasModal, 'the modal');
    expect(modal).toMatch(/─{80}\n Bash command\n\n {3}rm -rf build\n\n Do you want to proceed\?\n ❯ 1\. Yes\n {3}2\. Yes, and don't ask again this session\n {3}3\. No, and tell Claude what to do differently\n─{80}\n Esc to cancel$/);
    expect(modal).not.toContain('? for shortcuts');
    s.write('1');
    await s.waitFor((x) => x.includes('● Done: please approve this') && isIdle(x), 'done after approval');
    expect(s.log()).toContain('{"modal":"answered","choice":1}');
    expect(s.received()).toEqual(['please approve this']);
  });

  it('moves the modal marker with arrow keys, confirms with Enter, and denies with 3 or Esc', async () => {
    const s = start();
    await s.waitFor(isIdle, 'the idle prompt');
    s.write('approve A\r');
    await s.waitFor(hasModal, 'the modal');
    s.write('\x1b[B\x1b[B');
    await s.waitFor((x) => x.includes(' ❯ 3. No'), 'the marker on row 3');
    s.write('\x1b[A');
    await s.waitFor((x) => x.includes(' ❯ 2. Yes, and'), 'the marker on row 2');
    s.write('\r');
    await s.waitFor((x) => x.includes('● Done: approve A') && isIdle(x), 'done after choice 2');
    s.write('approve B\r');
    await s.waitFor((x) => hasModal(x) && x.includes('> approve B'), 'the second modal');
    s.write('3');
    await s.waitFor((x) => x.includes('✗ Denied') && isIdle(x), 'denied');
    s.write('approve C\r');
    await s.waitFor((x) => hasModal(x) && x.includes('> approve C'), 'the third modal');
    s.write('\x1b');
    await s.waitFor((x) => (x.match(/✗ Denied/g) ?? []).length === 2 && isIdle(x), 'cancelled');
    const modalLog = s.log().filter((l) => l.startsWith('{"modal"'));
    expect(modalLog).toEqual(['{"modal":"answered","choice":2}', '{"modal":"answered","choice":3}', '{"modal":"cancelled"}']);
  });

  it('with --focus-gated enables focus reporting and drops input until ESC[I arrives', async () => {
    const s = start(['--focus-gated']);
    await s.waitFor(isIdle, 'the idle prompt');
    expect(s.raw()).toContain('\x1b[?1004h');
    s.write('lost\r');
    await s.waitForLog((l) => l.includes('{"dropped":"lost\\r"}'), 'the dropped input');
    expect(s.screen()).toMatch(/\n❯\n/);
    s.write('\x1b[I');
    await s.waitForLog((l) => l.includes('{"focus":"in"}'), 'focus-in');
    s.write('kept\r');
    await s.waitForLog((l) => l.includes('RECEIVED:"kept"'), 'the message');
    expect(s.received()).toEqual(['kept']);
  });

  it('with --swallow-first-enter ignores only the first Enter', async () => {
    const s = start(['--swallow-first-enter']);
    await s.waitFor(isIdle, 'the idle prompt');
    s.write('hi');
    await s.waitFor((x) => x.includes('❯ hi'), 'the echo');
    s.write('\r');
    await s.waitForLog((l) => l.includes('{"swallowed":"enter"}'), 'the swallowed Enter');
    expect(s.received()).toEqual([]);
    expect(s.screen()).toContain('❯ hi');
    s.write('\r');
    await s.waitForLog((l) => l.includes('RECEIVED:"hi"'), 'the resent Enter');
  });

  it('with --slow-echo-ms shows typed text only after the delay', async () => {
    const s = start(['--slow-echo-ms', '1500']);
    await s.waitFor(isIdle, 'the idle prompt');
    s.write('slow');
    await s.waitForLog((l) => l.includes('{"keys":"slow"}'), 'the keys');
    expect(s.screen()).not.toContain('❯ slow');
    await s.waitFor((x) => x.includes('❯ slow'), 'the late echo');
  });

  it('with --freeze-on-focus-out stops repainting while working until focus-in', async () => {
    const s = start(['--freeze-on-focus-out', '--work-ms', '1500']);
    await s.waitFor(isIdle, 'the idle prompt');
    s.write('long job\r');
    await s.waitFor((x) => x.includes('Working…'), 'the spinner');
    s.write('\x1b[O');
    await s.waitForLog((l) => l.includes('{"frozen":true}'), 'the freeze');
    const frozenRawLength = s.raw().length;
    await new Promise((r) => setTimeout(r, 400));
    expect(s.raw().length).toBe(frozenRawLength);
    s.write('\x1b[I');
    await s.waitFor((x) => x.includes('● Done: long job') && isIdle(x), 'done after unfreezing');
  });

  it('with --freeze-after-ms freezes mid-turn and resumes on the next input', async () => {
    const s = start(['--freeze-after-ms', '200', '--work-ms', '1000']);
    await s.waitFor(isIdle, 'the idle prompt');
    s.write('stall\r');
    await s.waitForLog((l) => l.includes('{"frozen":true}'), 'the freeze');
    expect(s.screen()).toContain('Working…');
    s.write('\x1b[I');
    await s.waitFor((x) => x.includes('● Done: stall') && isIdle(x), 'done after the refocus');
  });

  it('queues a message submitted while working and runs it after the current turn', async () => {
    const s = start(['--work-ms', '1000']);
    await s.waitFor(isIdle, 'the idle prompt');
    s.write('first\r');
    await s.waitFor((x) => x.includes('Working…'), 'the spinner');
    s.write('second\r');
    await s.waitFor((x) => x.includes('⎿ 1 queued'), 'the queued marker');
    await s.waitFor((x) => x.includes('● Done: second') && isIdle(x), 'the second turn');
    expect(s.received()).toEqual(['first', 'second']);
    expect(s.screen().indexOf('● Done: first')).toBeLessThan(s.screen().indexOf('● Done: second'));
  });

  it('with --exit-after-ms exits 0 on its own', async () => {
    const s = start(['--exit-after-ms', '300']);
    expect((await s.exited).exitCode).toBe(0);
  });

  it('logs resizes and repaints to the new width', async () => {
    const s = start();
    await s.waitFor(isIdle, 'the idle prompt');
    s.resize(60, 20);
    await s.waitForLog((l) => l.includes('{"resize":[60,20]}'), 'the resize');
    await s.waitFor((x) => /\n─{60}\n❯\n─{60}\n/.test(x), 'the 60-column box');
  });

  it('Ctrl-C interrupts a turn; twice at idle exits 130', async () => {
    const s = start(['--work-ms', '5000']);
    await s.waitFor(isIdle, 'the idle prompt');
    s.write('busy\r');
    await s.waitFor((x) => x.includes('Working…'), 'the spinner');
    s.write('\x03');
    await s.waitFor((x) => x.includes('Interrupted') && isIdle(x), 'the interrupt');
    s.write('\x03');
    await s.waitFor((x) => x.includes('Press Ctrl-C again to exit'), 'the exit hint');
    s.write('\x03');
    expect((await s.exited).exitCode).toBe(130);
  });

  it('exits 0 on /exit and 3 on the --crash-on text, logging the message first', async () => {
    const a = start();
    await a.waitFor(isIdle, 'the idle prompt');
    a.write('/exit\r');
    expect((await a.exited).exitCode).toBe(0);
    const b = start(['--crash-on', 'boom']);
    await b.waitFor(isIdle, 'the idle prompt');
    b.write('boom\r');
    expect((await b.exited).exitCode).toBe(3);
    expect(b.received()).toEqual(['boom']);
  });

  it('rejects an unknown option with exit code 2', async () => {
    const s = start(['--bogus']);
    expect((await s.exited).exitCode).toBe(2);
    expect(s.raw()).toContain('unknown option "--bogus"');
  });
});

// ── The spec fixture against real screens ───────────────────────────────────

/** A minimal re-statement of §2.2 for the section shapes the fixture uses (anchored, from_top). */
function resolveSection(def: SectionDef, lines: string[]): string {
  if (def.anchor !== undefined) {
    const re = new RegExp(def.anchor as string, def.anchor_flags ?? '');
    const hits = lines.map((l, i) => (re.test(l) ? i : -1)).filter((i) => i >= 0);
    if (hits.length === 0) return def.anchor_miss === 'empty' ? '' : lines.join('\n');
    const from = def.anchor_last ? hits[hits.length - 1]! : hits[0]!;
    return lines.slice(from, def.lines ? from + def.lines : undefined).join('\n');
  }
  return lines.slice(Number(def.from_top ?? 0)).join('\n');
}

/** Regex leaves, all/any/not and time leaves treated as already satisfied. */
function holds(cond: Condition | undefined, spec: CliSpecV4, screen: string): boolean {
  if (!cond) return true;
  if ('all' in cond) return cond.all.every((c) => holds(c, spec, screen));
  if ('any' in cond) return cond.any.some((c) => holds(c, spec, screen));
  if ('not' in cond) return !holds(cond.not, spec, screen);
  if ('elapsed_ms' in cond || 'stable_ms' in cond) return true;
  if ('matches' in cond) {
    const lines = screen.split('\n');
    const hay = cond.section ? resolveSection(spec.sections![cond.section]!, lines) : screen;
    return new RegExp(cond.matches, cond.flags ?? 'i').test(hay);
  }
  throw new Error(`fixture uses an unexpected condition: ${JSON.stringify(cond)}`);
}

function firingTarget(spec: CliSpecV4, from: string, screen: string): string | null {
  const out = spec.transitions
    .map((t, i) => ({ t, i }))
    .filter(({ t }) => t.from === '*' || t.from === from || (Array.isArray(t.from) && t.from.includes(from)))
    .sort((a, b) => (b.t.priority ?? 0) - (a.t.priority ?? 0) || a.i - b.i)
    .find(({ t }) => holds(t.when, spec, screen));
  return out?.t.to ?? null;
}

describe('test/fixtures/specs/fake-agent.json', () => {
  const spec = JSON.parse(fs.readFileSync(SPEC_PATH, 'utf8')) as CliSpecV4;

  it('is structurally valid spec@4: one initial state, known state ids, compiling regexes', () => {
    expect(spec.$schema).toBe('adhdev:cli/spec@4');
    expect(spec.binary).toBe('node');
    expect(spec.states.filter((s) => s.initial)).toHaveLength(1);
    const ids = new Set(spec.states.map((s) => s.id));
    for (const t of spec.transitions) {
      for (const f of Array.isArray(t.from) ? t.from : [t.from]) expect(f === '*' || ids.has(f)).toBe(true);
      expect(ids.has(t.to)).toBe(true);
    }
    const walk = (c: Condition | undefined): void => {
      if (!c) return;
      if ('all' in c) c.all.forEach(walk);
      else if ('any' in c) c.any.forEach(walk);
      else if ('not' in c) walk(c.not);
      else if ('matches' in c) {
        expect(() => new RegExp(c.matches, c.flags ?? 'i')).not.toThrow();
        if (c.section) expect(spec.sections).toHaveProperty(c.section);
      }
    };
    spec.transitions.forEach((t) => walk(t.when));
  });

  it('launches through planSpawn: binary node resolves and the agent path comes from extra args', async () => {
    const s = start(['--title'], { cols: 80, rows: 24 }, true);
    await s.waitFor(isIdle, 'the idle prompt');
    s.write('planned\r');
    await s.waitForLog((l) => l.includes('RECEIVED:"planned"'), 'the message');
  });

  it('classifies the real idle, working and approval screens and extracts the three buttons', async () => {
    const s = start(['--work-ms', '1500']);
    const idle = await s.waitFor(isIdle, 'the idle prompt');
    expect(firingTarget(spec, 'starting', idle)).toBe('idle');
    expect(firingTarget(spec, 'idle', idle)).toBeNull();
    s.write('approve me\r');
    const working = await s.waitFor((x) => x.includes('Working…'), 'the spinner');
    expect(firingTarget(spec, 'idle', working)).toBe('busy');
    expect(firingTarget(spec, 'busy', working)).toBeNull();
    const modal = await s.waitFor(hasModal, 'the modal');
    expect(firingTarget(spec, 'busy', modal)).toBe('approval');
    expect(firingTarget(spec, 'approval', modal)).toBeNull();
    const rule = spec.states.find((st) => st.id === 'approval')!.extract!.buttons!;
    const hay = resolveSection(spec.sections![rule.section!]!, modal.split('\n'));
    const buttons = [...hay.matchAll(new RegExp(rule.pattern, rule.flags))].map((m) => [Number(m[1]), m[2]]);
    expect(buttons).toEqual([[1, 'Yes'], [2, "Yes, and don't ask again this session"], [3, 'No, and tell Claude what to do differently']]);
    expect(rule.key_for_index).toBe('{index}');
    s.write('1');
    const resumed = await s.waitFor((x) => x.includes('Working…') && !hasModal(x), 'work after approval');
    expect(firingTarget(spec, 'approval', resumed)).toBe('busy');
    const done = await s.waitFor((x) => x.includes('● Done: approve me') && isIdle(x), 'done');
    expect(firingTarget(spec, 'busy', done)).toBe('idle');
  });
});
