import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createPtyTransport, type PtyTransportHandle } from './pty-transport.js';
import { SpawnError, TerminalError } from './errors.js';
import type { ExitInfo, SpawnRequest } from './transport.js';

const NODE = process.execPath;
const workDir = mkdtempSync(join(tmpdir(), 'specterm-pty-'));
const transports: PtyTransportHandle[] = [];

afterEach(() => {
  for (const t of transports.splice(0)) t.kill();
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function request(script: string, extra: Partial<SpawnRequest> = {}): SpawnRequest {
  return { file: NODE, args: ['-e', script], cwd: workDir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cols: 80, rows: 24, ...extra };
}

function track(t: PtyTransportHandle): PtyTransportHandle {
  transports.push(t);
  return t;
}

/** Resolves with the exit info and all output; rejects after `timeoutMs` (generous: real processes). */
function runToExit(t: PtyTransportHandle, timeoutMs = 15_000): Promise<{ info: ExitInfo; output: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    t.onData((chunk) => (output += chunk));
    const timer = setTimeout(() => reject(new Error(`child did not exit within ${timeoutMs} ms; output so far: ${JSON.stringify(output)}`)), timeoutMs);
    t.onExit((info) => {
      clearTimeout(timer);
      resolve({ info, output });
    });
  });
}

function waitForOutput(t: PtyTransportHandle, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms; got ${JSON.stringify(output)}`)), timeoutMs);
    const sub = t.onData((chunk) => {
      output += chunk;
      if (pattern.test(output)) {
        clearTimeout(timer);
        sub.dispose();
        resolve(output);
      }
    });
  });
}

function expectSpawnError(fn: () => void, code: string, message: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SpawnError);
  expect((caught as SpawnError).code).toBe(code);
  expect((caught as SpawnError).message).toMatch(message);
}

describe('PtyTransport spawn and I/O', () => {
  it('delivers the child output and its exit code', async () => {
    const t = track(createPtyTransport());
    const done = runToExit(t);
    t.spawn(request("process.stdout.write('hello from child'); process.exit(3)"));
    expect(t.pid).toBeGreaterThan(0);
    const { info, output } = await done;
    expect(output).toContain('hello from child');
    expect(info).toEqual({ exitCode: 3, signal: null });
    expect(t.exitInfo).toEqual(info);
  });

  it('gives the child exactly the requested environment and size', async () => {
    const t = track(createPtyTransport());
    const done = runToExit(t);
    t.spawn(
      request("process.stdout.write(JSON.stringify({foo: process.env.FOO, home: process.env.HOME ?? null, term: process.env.TERM, size: [process.stdout.columns, process.stdout.rows]}))", {
        env: { PATH: process.env.PATH ?? '', FOO: 'bar', TERM: 'xterm-256color' },
        cols: 100,
        rows: 30,
      }),
    );
    const { output } = await done;
    expect(JSON.parse(output.slice(output.indexOf('{')))).toEqual({ foo: 'bar', home: null, term: 'xterm-256color', size: [100, 30] });
  });

  it('passes writes to the child and resizes its terminal', async () => {
    const t = track(createPtyTransport());
    const done = runToExit(t);
    t.spawn(
      request(
        "process.stdin.setRawMode(true); process.stdout.write('ready\\n');" +
          "process.stdout.on('resize', () => process.stdout.write('size=' + process.stdout.columns + 'x' + process.stdout.rows + '\\n'));" +
          "process.stdin.on('data', (d) => { if (String(d).includes('q')) { process.stdout.write('got ' + String(d)); process.exit(0); } });",
      ),
    );
    await waitForOutput(t, /ready/);
    expect(() => t.resize(10_000, 10_000)).toThrow(/cols must be an integer between 1 and 1000 \(the widest terminal specterm supports\), got 10000/);
    t.resize(90, 20);
    await waitForOutput(t, /size=90x20/);
    t.write('q');
    const { info, output } = await done;
    expect(output).toContain('got q');
    expect(info.exitCode).toBe(0);
  });

  it('ignores writes and resizes after the child exited', async () => {
    const t = track(createPtyTransport());
    const done = runToExit(t);
    t.spawn(request('process.exit(0)'));
    await done;
    expect(() => t.write('late')).not.toThrow();
    expect(() => t.resize(10, 10)).not.toThrow();
  });

  it('keeps delivering data when a listener throws', async () => {
    const errors: unknown[] = [];
    const t = track(createPtyTransport({ onListenerError: (error) => errors.push(error) }));
    t.onData(() => {
      throw new Error('listener bug');
    });
    const done = runToExit(t);
    t.spawn(request("process.stdout.write('payload')"));
    const { output, info } = await done;
    expect(output).toContain('payload');
    expect(info.exitCode).toBe(0);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('stops calling a listener after its disposable is disposed', async () => {
    const t = track(createPtyTransport());
    let calls = 0;
    t.onData(() => calls++).dispose();
    const done = runToExit(t);
    t.spawn(request("process.stdout.write('x')"));
    await done;
    expect(calls).toBe(0);
  });
});

describe('PtyTransport spawn failures', () => {
  it('throws PTY_BINARY_NOT_FOUND for a missing absolute path', () => {
    const t = track(createPtyTransport());
    expectSpawnError(() => t.spawn(request('', { file: '/nonexistent/specterm-agent' })), 'PTY_BINARY_NOT_FOUND', /executable "\/nonexistent\/specterm-agent" not found/);
  });

  it('throws PTY_BINARY_NOT_FOUND for a name that is not on the child PATH', () => {
    const t = track(createPtyTransport());
    expectSpawnError(() => t.spawn(request('', { file: 'specterm-no-such-binary', env: { PATH: workDir } })), 'PTY_BINARY_NOT_FOUND', /not found on the child's PATH/);
  });

  it('throws PTY_CWD_INVALID for a missing working directory', () => {
    const t = track(createPtyTransport());
    expectSpawnError(() => t.spawn(request('', { cwd: join(workDir, 'missing') })), 'PTY_CWD_INVALID', /does not exist; pass an existing directory/);
  });

  it('throws PTY_BINARY_NOT_EXECUTABLE for a file without the execute bit', () => {
    const file = join(workDir, 'not-exec.sh');
    writeFileSync(file, '#!/bin/sh\necho hi\n');
    chmodSync(file, 0o644);
    const t = track(createPtyTransport());
    expectSpawnError(() => t.spawn(request('', { file })), 'PTY_BINARY_NOT_EXECUTABLE', /is not an executable file/);
  });

  it('throws PTY_INVALID_REQUEST naming a bad field', () => {
    const t = track(createPtyTransport());
    expectSpawnError(() => t.spawn({ ...request(''), args: 'oops' as unknown as string[] }), 'PTY_INVALID_REQUEST', /field args must be an array of strings, got "oops"/);
    expectSpawnError(() => t.spawn({ ...request(''), env: { X: 1 as unknown as string } }), 'PTY_INVALID_REQUEST', /field env.X must be a string, got 1/);
    expectSpawnError(() => t.spawn({ ...request(''), cols: 0 }), 'PTY_INVALID_REQUEST', /field cols must be an integer/);
    expectSpawnError(() => t.spawn({ ...request(''), rows: 10_000 }), 'PTY_INVALID_REQUEST', /field rows must be an integer between 1 and 500 \(the tallest terminal specterm supports\), got 10000; pass the terminal's size in cells \(at most 1000 x 500\)/);
  });

  it('reports an exec failure that happens after spawn returned through onSpawnError and onExit', async () => {
    // Passes the pre-checks (exists, executable) but execvp fails: the interpreter is missing.
    const file = join(workDir, 'bad-interpreter.sh');
    writeFileSync(file, '#!/nonexistent/interpreter\n');
    chmodSync(file, 0o755);
    const t = track(createPtyTransport());
    const errors: SpawnError[] = [];
    t.onSpawnError((error) => errors.push(error));
    const done = runToExit(t);
    expect(() => t.spawn(request('', { file, args: [] }))).not.toThrow();
    const { info } = await done;
    expect(info).toEqual({ exitCode: 1, signal: null });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe('PTY_SPAWN_FAILED');
    expect(errors[0]?.message).toMatch(/could not execute .*bad-interpreter\.sh.*No such file or directory/);
  });

  it('refuses a second spawn and writes before spawn', () => {
    const t = track(createPtyTransport());
    expect(() => t.write('x')).toThrow(TerminalError);
    t.spawn(request('setTimeout(() => {}, 5000)'));
    expectSpawnError(() => t.spawn(request('')), 'PTY_ALREADY_SPAWNED', /already called/);
  });
});

describe('PtyTransport kill', () => {
  it('ends the child with SIGHUP and reports the signal name', async () => {
    const t = track(createPtyTransport());
    const done = runToExit(t);
    t.spawn(request("process.stdout.write('up'); setInterval(() => {}, 1000)"));
    await waitForOutput(t, /up/);
    t.kill();
    t.kill();
    const { info } = await done;
    expect(info).toEqual({ exitCode: null, signal: 'SIGHUP' });
  });

  it('escalates to SIGKILL when the child ignores SIGHUP', async () => {
    const t = track(createPtyTransport({ killGraceMs: 300 }));
    const done = runToExit(t);
    t.spawn(request("process.on('SIGHUP', () => {}); process.stdout.write('armored'); setInterval(() => {}, 1000)"));
    await waitForOutput(t, /armored/);
    const killedAt = Date.now();
    t.kill();
    const { info } = await done;
    expect(info).toEqual({ exitCode: null, signal: 'SIGKILL' });
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(250);
  });

  it('leaves no timer behind once the child has exited', async () => {
    const countTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const baseline = countTimers();
    const t = track(createPtyTransport({ killGraceMs: 60_000 }));
    const done = runToExit(t);
    t.spawn(request("process.stdout.write('up'); setInterval(() => {}, 1000)"));
    await waitForOutput(t, /up/);
    t.kill();
    // runToExit's own timeout timer is cleared on exit as well.
    await done;
    await new Promise((resolve) => setImmediate(resolve));
    expect(countTimers()).toBeLessThanOrEqual(baseline);
  });

  it('does nothing when killed before spawn or after exit', async () => {
    const t = track(createPtyTransport());
    expect(() => t.kill()).not.toThrow();
    const done = runToExit(t);
    t.spawn(request('process.exit(0)'));
    await done;
    expect(() => t.kill()).not.toThrow();
  });
});
