/**
 * Process-level tests of the Demo Agent: the built program (`dist/demo/main.js`, built by
 * `npm test`) runs in a real PTY, its output goes through a real @xterm/headless terminal,
 * and the assertions read the rendered screen — partly through `specs/demo-agent/spec.json`
 * itself (its sections and button rule), so the spec and the screen cannot drift apart.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import { Terminal } from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveModal, resolveSections, sectionText } from '../src/core/eval/index.js';
import type { CliSpecV4, FsmState } from '../src/core/spec/types.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'dist', 'demo', 'main.js');
const SPEC = JSON.parse(readFileSync(join(ROOT, 'specs', 'demo-agent', 'spec.json'), 'utf8')) as CliSpecV4;
/** Generous: starting Node + Ink takes ~1 s idle and much longer on a loaded CI box. */
const WAIT_MS = 30_000;
const TEST_MS = 90_000;

interface Agent {
  screen(): string;
  write(data: string): void;
  waitFor(what: string | RegExp | ((screen: string) => boolean), label?: string): Promise<string>;
  titles: string[];
  raw(): string;
  exited: Promise<number>;
  kill(): void;
}

const running: Agent[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const agent of running.splice(0)) {
    agent.kill();
    // Its files are removed only once it is gone (bounded: a kill is not waited on forever).
    await Promise.race([agent.exited, sleep(5_000)]);
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Spawns the demo agent in a PTY (80×24) and mirrors its output into a headless terminal. */
function spawnAgent(args: string[], cwd: string): Agent {
  const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 500 });
  const titles: string[] = [];
  term.onTitleChange((title) => titles.push(title));
  let raw = '';
  const child = pty.spawn(process.execPath, [MAIN, '--speed', '0.2', ...args], {
    cols: 80,
    rows: 24,
    cwd,
    env: { ...process.env, TERM: 'xterm-256color' } as Record<string, string>,
  });
  child.onData((data) => {
    raw += data;
    term.write(data);
  });
  const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  let alive = true;
  void exited.then(() => { alive = false; });
  // Same snapshot rules as the engine: right-trimmed rows, blank rows at both ends dropped.
  const screen = (): string => {
    const buffer = term.buffer.active;
    const rows: string[] = [];
    for (let i = 0; i < term.rows; i++) rows.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
    while (rows.length > 0 && rows[0].trim() === '') rows.shift();
    while (rows.length > 0 && rows[rows.length - 1].trim() === '') rows.pop();
    return rows.join('\n');
  };
  const agent: Agent = {
    screen,
    titles,
    raw: () => raw,
    exited,
    write: (data) => child.write(data),
    async waitFor(what, label) {
      const test = typeof what === 'function' ? what : (s: string) => (typeof what === 'string' ? s.includes(what) : what.test(s));
      const deadline = Date.now() + WAIT_MS;
      while (Date.now() < deadline) {
        const current = screen();
        if (test(current)) return current;
        await sleep(40);
      }
      throw new Error(`timed out waiting for ${label ?? String(what)}; screen was:\n${screen()}`);
    },
    kill() {
      if (alive) child.kill();
      term.dispose();
    },
  };
  running.push(agent);
  return agent;
}

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'demo-agent-e2e-')));
  dirs.push(dir);
  return dir;
}

function state(id: string): FsmState {
  const found = SPEC.states.find((s) => s.id === id);
  if (found === undefined) throw new Error(`spec has no state ${id}`);
  return found;
}

/** The spec's view of a screen: its sections and the modal a state would extract. */
function readWithSpec(screen: string, stateId: string) {
  const sections = resolveSections(SPEC.sections, screen.split('\n'));
  return {
    section: (id: string) => sectionText(sections, id, screen),
    modal: deriveModal(state(stateId), sections, screen),
  };
}

const SPINNER = /(?:^|\n)[·✢✳✶✻✽] [A-Za-z]+… \(\d+(?:m \d+)?s · [↑↓] [\d.]+k? tokens · esc to interrupt\)/;

async function startIdle(extra: string[] = []): Promise<Agent> {
  const dir = tempDir();
  const agent = spawnAgent(['--no-trust-prompt', '--settings', join(dir, 'settings.json'), ...extra], dir);
  await agent.waitFor((s) => s.includes('? for shortcuts') && /│ ❯ /.test(s), 'the idle input box');
  return agent;
}

describe('demo agent in a real PTY', () => {
  it('asks for folder trust on first run, records the folder on 1, and skips the prompt next time', async () => {
    const dir = tempDir();
    const settings = join(dir, 'home', 'settings.json');
    const first = spawnAgent(['--settings', settings], dir);
    const trustScreen = await first.waitFor('Do you trust the files in this folder?');
    expect(trustScreen).toContain(dir);
    const read = readWithSpec(trustScreen, 'trust');
    expect(read.modal?.title).toBe('Do you trust the files in this folder?');
    expect(read.modal?.buttons.map((b) => [b.index, b.label, b.current])).toEqual([[1, 'Yes, proceed', true], [2, 'No, exit', false]]);
    first.write('1');
    const idle = await first.waitFor('? for shortcuts');
    expect(idle).toMatch(/^│ ❯ /m);
    expect(idle).toContain('✻ Welcome to Demo Agent!');
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({ trustedFolders: [dir] });
    first.kill();

    const second = spawnAgent(['--settings', settings], dir);
    const again = await second.waitFor('? for shortcuts');
    expect(again).not.toContain('Do you trust');
  }, TEST_MS);

  it('streams an answer to hello under a spinner, animates the title, and ends with Worked for', async () => {
    const agent = await startIdle();
    expect(readWithSpec(agent.screen(), 'idle').section('footer')).toMatch(/^│ ❯ /);
    agent.write('hello');
    await agent.waitFor('│ ❯ hello');
    agent.write('\r');
    const busy = await agent.waitFor((s) => SPINNER.test(readWithSpec(s, 'busy').section('status')), 'the spinner line above the input box');
    expect(busy).toContain('> hello');
    const done = await agent.waitFor('✻ Worked for');
    expect(done).toMatch(/⏺ Hello! I'm Demo Agent/);
    expect(readWithSpec(done, 'idle').section('status')).not.toMatch(SPINNER);
    expect(agent.titles.some((t) => /^[·✢✶✻✽] Demo Agent$/.test(t))).toBe(true);
    await agent.waitFor(() => agent.titles.at(-1) === '✳ Demo Agent', 'the idle window title');
  }, TEST_MS);

  it('shows the approval modal with exactly the three buttons for run the tests; 1 proceeds', async () => {
    const agent = await startIdle();
    agent.write('run the tests');
    await agent.waitFor('│ ❯ run the tests');
    agent.write('\r');
    const modalScreen = await agent.waitFor('Do you want to proceed?');
    const read = readWithSpec(modalScreen, 'approval');
    expect(read.modal?.title).toBe('Bash command');
    expect(read.modal?.buttons.map((b) => b.label)).toEqual([
      'Yes',
      "Yes, and don't ask again for npm commands",
      'No, and tell Demo Agent what to do differently (esc)',
    ]);
    expect(read.modal?.buttons.map((b) => b.current)).toEqual([true, false, false]);
    expect(modalScreen).toContain('⏺ Bash(npm test)');
    agent.write('1');
    const done = await agent.waitFor('✻ Worked for');
    expect(done).toContain('Tests  12 passed (12)');
    expect(done).not.toContain('Do you want to proceed?');
  }, TEST_MS);

  it('opens the model picker on /model; 2 selects and the hint shows the new model', async () => {
    const agent = await startIdle();
    agent.write('/model');
    await agent.waitFor('│ ❯ /model');
    agent.write('\r');
    const picker = await agent.waitFor('Select model');
    const read = readWithSpec(picker, 'picker');
    expect(read.modal?.title).toBe('Select model');
    expect(read.modal?.buttons.map((b) => b.label)).toEqual([
      'demo-sonnet  Balanced for everyday tasks ✔',
      'demo-opus    Most capable, slower',
      'demo-haiku   Fastest answers',
    ]);
    expect(picker).toContain('Enter to confirm · Esc to exit');
    agent.write('2');
    const after = await agent.waitFor(/\? for shortcuts\s+demo-opus$/m, 'the hint line naming demo-opus');
    expect(after).toContain('⎿  Set model to demo-opus');
  }, TEST_MS);

  it('drops input before a focus-in when focus-gated, and accepts it after', async () => {
    const dir = tempDir();
    const agent = spawnAgent(['--focus-gated', '--no-trust-prompt', '--settings', join(dir, 's.json')], dir);
    await agent.waitFor('(input paused — terminal not focused)');
    expect(agent.raw()).toContain('\u001b[?1004h');
    agent.write('lost');
    await sleep(600);
    expect(agent.screen()).not.toContain('lost');
    agent.write('\u001b[I');
    await agent.waitFor('? for shortcuts');
    agent.write('kept');
    await agent.waitFor('│ ❯ kept');
    expect(agent.screen()).not.toContain('lost');
  }, TEST_MS);

  it('exits with 130 on a double Ctrl-C and restores the terminal modes; /exit exits with 0', async () => {
    const a = await startIdle();
    a.write('\u0003');
    await a.waitFor('Press Ctrl-C again to exit');
    a.write('\u0003');
    expect(await a.exited).toBe(130);
    expect(a.raw()).toContain('\u001b[?2004l');

    const b = await startIdle();
    b.write('/exit');
    await b.waitFor('│ ❯ /exit');
    b.write('\r');
    expect(await b.exited).toBe(0);
  }, TEST_MS);
});
