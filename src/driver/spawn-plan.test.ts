import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliSpecV4 } from '../core/spec/types.js';
import {
  DEFAULT_POSIX_SHELL,
  classifyExecutable,
  composeEnv,
  dedupeArgs,
  isSpawnPlanError,
  planSpawn,
  quotePosixArg,
  removeArgs,
  substituteWorkingDir,
  type SpawnPlan,
  type SpawnPlanError,
  type SpawnPlanInput,
} from './spawn-plan.js';

let root: string;
let bin: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-spawn-')));
  bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function writeExe(name: string, bytes: string | Buffer, mode = 0o755): string {
  const f = path.join(bin, name);
  fs.writeFileSync(f, bytes);
  fs.chmodSync(f, mode);
  return f;
}

function spec(over: Partial<CliSpecV4> = {}): CliSpecV4 {
  return {
    $schema: 'adhdev:cli/spec@4',
    id: 't',
    binary: 'agent',
    send_message: { submit_key: '\r' },
    states: [{ id: 's', label: 'S', initial: true }],
    transitions: [],
    ...over,
  };
}

function plan(over: Partial<SpawnPlanInput> = {}): SpawnPlan {
  const r = planSpawn({
    spec: spec(),
    workingDir: root,
    baseEnv: { PATH: bin, HOME: root, SHELL: '/bin/sh' },
    platform: 'linux',
    ...over,
  });
  if (isSpawnPlanError(r)) throw new Error(r.message);
  return r;
}

describe('removeArgs', () => {
  it('removes a token, its --flag=value variants and the consumed value of a spaced flag', () => {
    const args = ['--model', 'opus', '--model=sonnet', 'chat', '--permission-mode', '--verbose', '-x', 'v'];
    expect(removeArgs(args, ['--model', '-x'])).toEqual(['chat', '--permission-mode', '--verbose']);
    // A following flag is never consumed as the removed flag's value.
    expect(removeArgs(args, ['--permission-mode'])).toEqual(['--model', 'opus', '--model=sonnet', 'chat', '--verbose', '-x', 'v']);
    expect(removeArgs(['chat', 'x'], ['chat'])).toEqual(['x']);
  });
});

describe('dedupeArgs', () => {
  it('drops base flags that the extra args redeclare, with their non-flag value', () => {
    const base = ['--model', 'opus', '--permission-mode=default', '--verbose', 'chat', '-', '--'];
    expect(dedupeArgs(base, ['--model=haiku', '--permission-mode', 'plan', 'extra'])).toEqual(['--verbose', 'chat', '-', '--']);
    expect(dedupeArgs(base, ['-', '--', 'positional'])).toEqual(base);
  });
});

describe('substituteWorkingDir', () => {
  it('replaces every occurrence', () => {
    expect(substituteWorkingDir('--dir={{workingDir}}:{{workingDir}}/x', '/w')).toBe('--dir=/w:/w/x');
  });
});

describe('quotePosixArg', () => {
  it('leaves safe words bare and single-quotes the rest, escaping embedded quotes', () => {
    expect(quotePosixArg('--model=opus@1.2,a:b/c_d+e%f')).toBe('--model=opus@1.2,a:b/c_d+e%f');
    expect(quotePosixArg('')).toBe("''");
    expect(quotePosixArg('a b')).toBe("'a b'");
    expect(quotePosixArg("it's")).toBe("'it'\\''s'");
    expect(quotePosixArg('$HOME;rm -rf /')).toBe("'$HOME;rm -rf /'");
  });

  it('round-trips hostile arguments through a real shell unchanged', () => {
    const hostile = ["it's", 'a "b"', '$(id)', '`x`', '\\n', '*', '', ' ', 'ü ✓', "'", "''"];
    const script = 'printf "%s\\0" ' + hostile.map(quotePosixArg).join(' ');
    const out = execFileSync('/bin/sh', ['-c', script]).toString('utf8');
    expect(out.split('\0').slice(0, -1)).toEqual(hostile);
  });
});

describe('composeEnv', () => {
  const base = {
    PATH: '/bin', npm_config_prefix: '/p', npm_lifecycle_event: 'x', INIT_CWD: '/i', PNPM_HOME: '/pn',
    YARN_WRAP: '1', BUN_INSTALL: '/b', VSCODE_PID: '1', ELECTRON_RUN_AS_NODE: '1', CODEX_THREAD_ID: 't',
    CODEX_INTERNAL_ORIGINATOR_OVERRIDE: 'o', KEEP: 'yes', UNDEF: undefined, TERM: 'xterm-color',
  };

  it('layers base < spec < extra, keeps strings only and strips leaked tool variables', () => {
    const env = composeEnv({ baseEnv: base, specEnv: { KEEP: 'spec', A: 'spec' }, extraEnv: { A: 'extra', npm_x: 'y' }, workingDir: '/w', platform: 'linux' });
    expect(env).toEqual({ PATH: '/bin', KEEP: 'spec', A: 'extra', TERM: 'xterm-256color', COLORTERM: 'truecolor', TERMINAL_CWD: '/w' });
  });

  it('keeps an explicit TERM/COLORTERM and sets no colour variables under NO_COLOR', () => {
    expect(composeEnv({ baseEnv: { TERM: 'screen', COLORTERM: '24bit' }, specEnv: {}, extraEnv: {}, workingDir: '/w', platform: 'linux' }))
      .toEqual({ TERM: 'screen', COLORTERM: '24bit', TERMINAL_CWD: '/w' });
    expect(composeEnv({ baseEnv: { NO_COLOR: '1' }, specEnv: {}, extraEnv: {}, workingDir: '/w', platform: 'win32' }))
      .toEqual({ NO_COLOR: '1', TERMINAL_CWD: '/w' });
  });

  it('adds FORCE_COLOR and CLICOLOR on win32', () => {
    const env = composeEnv({ baseEnv: {}, specEnv: {}, extraEnv: {}, workingDir: 'C:\\w', platform: 'win32' });
    expect(env).toMatchObject({ FORCE_COLOR: '1', CLICOLOR: '1', TERM: 'xterm-256color', TERMINAL_CWD: 'C:\\w' });
  });
});

describe('classifyExecutable', () => {
  it('recognises ELF, Mach-O, shebang, BOM+shebang and other files', () => {
    expect(classifyExecutable(process.execPath)).toBe('native');
    expect(classifyExecutable(writeExe('macho', Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1])))).toBe('native');
    expect(classifyExecutable(writeExe('fat', Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0])))).toBe('native');
    expect(classifyExecutable(writeExe('sb', '#!/usr/bin/env node\n'))).toBe('shebang');
    expect(classifyExecutable(writeExe('bom', '\ufeff#!/bin/sh\n'))).toBe('bom-shebang');
    expect(classifyExecutable(writeExe('plain', 'echo hi\n'))).toBe('other');
    expect(classifyExecutable(writeExe('empty', ''))).toBe('other');
    expect(classifyExecutable(path.join(root, 'missing'))).toBe('unreadable');
  });
});

describe('planSpawn on POSIX', () => {
  it('execs a shebang script directly with the composed args, cwd, env and default size', () => {
    const agent = writeExe('agent', '#!/usr/bin/env node\n');
    const p = plan({
      spec: spec({ spawn_args: ['--model', 'opus', '--cwd={{workingDir}}'], env: { FROM_SPEC: '1' } }),
      extraArgs: ['--model', 'haiku'],
      extraEnv: { FROM_EXTRA: '2' },
    });
    expect(p).toMatchObject({
      file: agent, args: ['--cwd=' + root, '--model', 'haiku'], cwd: root, cols: 80, rows: 32,
      resolvedBinary: agent, viaShell: false, argvForDisplay: [agent, '--cwd=' + root, '--model', 'haiku'],
    });
    expect(p.env).toMatchObject({ FROM_SPEC: '1', FROM_EXTRA: '2', TERMINAL_CWD: root, TERM: 'xterm-256color' });
  });

  it('execs a native binary directly', () => {
    const node = writeExe('agent', fs.readFileSync(process.execPath).subarray(0, 64));
    expect(plan()).toMatchObject({ file: node, viaShell: false });
  });

  it('wraps a shebang-less script and a BOM-prefixed script in $SHELL -l -c with quoted argv', () => {
    const agent = writeExe('agent', 'echo hi\n');
    const p = plan({ extraArgs: ['--prompt', "it's {{workingDir}}"], baseEnv: { PATH: bin, SHELL: '/bin/bash' } });
    expect(p.viaShell).toBe(true);
    expect(p.file).toBe('/bin/bash');
    expect(p.args).toEqual(['-l', '-c', `exec ${agent} --prompt 'it'\\''s ${root}'`]);
    writeExe('agent', '\ufeff#!/bin/sh\n');
    expect(plan().viaShell).toBe(true);
  });

  it('falls back to /bin/sh when SHELL is unset or not an executable', () => {
    writeExe('agent', 'echo hi\n');
    expect(plan({ baseEnv: { PATH: bin } }).file).toBe(DEFAULT_POSIX_SHELL);
    expect(plan({ baseEnv: { PATH: bin, SHELL: '/nonexistent/zsh' } }).file).toBe(DEFAULT_POSIX_SHELL);
    expect(plan({ baseEnv: { PATH: bin, SHELL: 'zsh' } }).file).toBe(DEFAULT_POSIX_SHELL);
  });

  it('wraps even a native binary when forceShell is set', () => {
    writeExe('agent', '#!/bin/sh\n');
    expect(plan({ forceShell: true })).toMatchObject({ file: '/bin/sh', viaShell: true });
  });

  it('runs the planned command for real: a wrapped script sees exactly its argv and env', () => {
    writeExe('agent', 'printf "%s|" "$@"; printf "%s" "$TERMINAL_CWD"\n');
    // A login shell sources /etc/profile, which needs the system PATH.
    const p = plan({ extraArgs: ["a b", "c'd", ''], baseEnv: { PATH: `${bin}:/usr/bin:/bin`, SHELL: '/bin/sh' } });
    const out = execFileSync(p.file, p.args, { cwd: p.cwd, env: p.env }).toString();
    expect(out).toBe(`a b|c'd||${root}`);
  });

  it('returns errors for a missing binary, a missing working dir and a bad size', () => {
    const noBin = planSpawn({ spec: spec({ binary: 'nope' }), workingDir: root, baseEnv: { PATH: bin }, platform: 'linux' }) as SpawnPlanError;
    expect(noBin.code).toBe('BINARY_NOT_FOUND');
    expect(noBin.searched).toContain(bin);
    expect(noBin.message).toContain('--binary PATH');
    writeExe('agent', '#!/bin/sh\n');
    const noDir = planSpawn({ spec: spec(), workingDir: path.join(root, 'missing'), baseEnv: { PATH: bin } }) as SpawnPlanError;
    expect(noDir.code).toBe('SPAWN_CWD_INVALID');
    expect(noDir.message).toContain('missing');
    const bad = planSpawn({ spec: spec(), workingDir: root, baseEnv: { PATH: bin }, cols: 0 }) as SpawnPlanError;
    expect(bad.code).toBe('SPAWN_INVALID_SIZE');
    expect(bad.message).toContain('cols');
  });
});

describe('planSpawn on win32 (simulated)', () => {
  const win = (over: Partial<SpawnPlanInput> = {}) =>
    planSpawn({ spec: spec(), workingDir: root, baseEnv: { Path: bin, ComSpec: 'C:\\Windows\\system32\\cmd.exe' }, platform: 'win32', ...over });

  it('runs an .exe directly and a .cmd shim through cmd.exe /d /c', () => {
    const exe = writeExe('agent.exe', 'MZ');
    expect(win({ extraArgs: ['--x'] })).toMatchObject({ file: exe, args: ['--x'], viaShell: false });
    fs.rmSync(exe);
    const cmd = writeExe('agent.cmd', '@echo off');
    expect(win({ extraArgs: ['--x'] })).toMatchObject({
      file: 'C:\\Windows\\system32\\cmd.exe', args: ['/d', '/c', cmd, '--x'], viaShell: true, resolvedBinary: cmd,
    });
  });

  it('refuses arguments that cmd.exe would interpret instead of mis-quoting them', () => {
    writeExe('agent.bat', '@echo off');
    const r = win({ extraArgs: ['a&calc'] }) as SpawnPlanError;
    expect(isSpawnPlanError(r)).toBe(true);
    expect(r.code).toBe('SPAWN_UNSAFE_CMD_ARG');
    expect(r.message).toContain('a&calc');
  });
});
