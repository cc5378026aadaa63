import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandHome, findBinary, isBinaryNotFound, searchDirectories, type BinaryNotFound } from './find-binary.js';

let root: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-findbin-')));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function mkdir(rel: string): string {
  const d = path.join(root, rel);
  fs.mkdirSync(d, { recursive: true });
  return d;
}

function touch(dir: string, name: string, mode = 0o755): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, '#!/bin/sh\necho hi\n', { mode });
  fs.chmodSync(f, mode);
  return f;
}

/** Options isolating the search from the host: no real PATH, a fake Node install. */
function isolated(pathDirs: string[], extra: { platform?: NodeJS.Platform; env?: Record<string, string> } = {}) {
  const nodeDir = mkdir('node/bin');
  const platform = extra.platform ?? 'linux';
  return {
    env: { PATH: pathDirs.join(platform === 'win32' ? ';' : ':'), ...extra.env },
    platform,
    execPath: path.join(nodeDir, platform === 'win32' ? 'node.exe' : 'node'),
    homeDir: mkdir('home'),
    cwd: root,
  };
}

describe('findBinary on POSIX', () => {
  it('returns the first executable match in PATH order', () => {
    const a = mkdir('a');
    const b = mkdir('b');
    touch(a, 'agent', 0o644); // not executable: skipped
    const inB = touch(b, 'agent');
    const later = mkdir('c');
    touch(later, 'agent');
    expect(findBinary('  agent ', isolated([a, b, later]))).toEqual({ path: inB });
  });

  it('falls back to npm_config_prefix/bin, then the Node executable dir', () => {
    const prefix = mkdir('npm-prefix');
    const bin = mkdir('npm-prefix/bin');
    const inPrefix = touch(bin, 'claude');
    const opts = isolated([mkdir('empty')], { env: { npm_config_prefix: prefix } });
    expect(findBinary('claude', opts)).toEqual({ path: inPrefix });

    const opts2 = isolated([mkdir('empty')]);
    const inNodeDir = touch(path.dirname(opts2.execPath), 'codex');
    expect(findBinary('codex', opts2)).toEqual({ path: inNodeDir });
  });

  it('names the binary, every searched directory and the fix when nothing matches', () => {
    const a = mkdir('a');
    const opts = isolated([a], { env: { npm_config_prefix: path.join(root, 'pfx') } });
    const r = findBinary('ghost', opts) as BinaryNotFound;
    expect(isBinaryNotFound(r)).toBe(true);
    expect(r.code).toBe('BINARY_NOT_FOUND');
    expect(r.searched).toEqual([a, path.join(root, 'pfx/bin'), path.join(root, 'node/bin')]);
    expect(r.message).toContain('"ghost"');
    for (const d of r.searched) expect(r.message).toContain(d);
    expect(r.message).toContain('--binary PATH');
  });

  it('skips relative and empty PATH entries and lists each directory once', () => {
    const a = mkdir('a');
    const dirs = searchDirectories({ PATH: `${a}::.:bin:${a}` }, 'linux', path.join(a, 'node'));
    expect(dirs).toEqual([a, path.join(root, 'bin')]);
  });

  it('resolves an explicit path, relative paths against cwd and ~ against home', () => {
    const opts = isolated([]);
    const tool = touch(mkdir('tools'), 'agent');
    expect(findBinary(tool, opts)).toEqual({ path: tool });
    expect(findBinary('./tools/agent', opts)).toEqual({ path: tool });
    const homeTool = touch(mkdir('home/.local/bin'), 'agent');
    expect(findBinary('~/.local/bin/agent', opts)).toEqual({ path: homeTool });
  });

  it('rejects an explicit path that is missing, a directory or not executable', () => {
    const opts = isolated([]);
    const missing = findBinary(path.join(root, 'nope'), opts) as BinaryNotFound;
    expect(missing.code).toBe('BINARY_NOT_FOUND');
    expect(missing.message).toContain(path.join(root, 'nope'));
    const plain = touch(mkdir('x'), 'plain', 0o644);
    const notExec = findBinary(plain, opts) as BinaryNotFound;
    expect(notExec.code).toBe('BINARY_NOT_EXECUTABLE');
    expect(notExec.message).toContain('chmod +x');
    expect((findBinary(mkdir('adir'), opts) as BinaryNotFound).code).toBe('BINARY_NOT_EXECUTABLE');
  });

  it('reports a blank name with a fix instead of searching', () => {
    const r = findBinary('   ', isolated([])) as BinaryNotFound;
    expect(r.code).toBe('BINARY_EMPTY');
    expect(r.message).toContain('--binary PATH');
  });
});

describe('findBinary on win32 (simulated with constructed dirs)', () => {
  it('prefers .exe/.com over .cmd/.bat within a directory and never picks an extensionless shim', () => {
    const a = mkdir('w1');
    touch(a, 'claude'); // npm's POSIX shim: never chosen on win32
    const cmd = touch(a, 'claude.cmd', 0o644);
    const opts = isolated([a], { platform: 'win32' });
    expect(findBinary('claude', opts)).toEqual({ path: cmd });
    const exe = touch(a, 'claude.exe', 0o644);
    expect(findBinary('claude', opts)).toEqual({ path: exe });
  });

  it('keeps PATH order across directories', () => {
    const first = mkdir('w1');
    const second = mkdir('w2');
    const bat = touch(first, 'agent.bat', 0o644);
    touch(second, 'agent.exe', 0o644);
    expect(findBinary('agent', isolated([first, second], { platform: 'win32' }))).toEqual({ path: bat });
  });

  it('reads Path case-insensitively and searches the npm prefix itself and %APPDATA%\\npm', () => {
    const appData = mkdir('appdata');
    const npmDir = mkdir('appdata/npm');
    const shim = touch(npmDir, 'codex.cmd', 0o644);
    const opts = isolated([], { platform: 'win32' });
    const env = { Path: mkdir('p1'), APPDATA: appData };
    expect(findBinary('codex', { ...opts, env })).toEqual({ path: shim });
    const dirs = searchDirectories({ ...env, npm_config_prefix: mkdir('pfx') }, 'win32', opts.execPath);
    expect(dirs).toEqual([path.join(root, 'p1'), path.join(root, 'pfx'), path.dirname(opts.execPath), npmDir]);
  });

  it('completes an explicit path without extension and lists the tried names when missing', () => {
    const dir = mkdir('w3');
    const exe = touch(dir, 'tool.exe', 0o644);
    const opts = isolated([], { platform: 'win32' });
    expect(findBinary(path.join(dir, 'tool'), opts)).toEqual({ path: exe });
    const r = findBinary('ghost', opts) as BinaryNotFound;
    expect(r.message).toContain('ghost.exe, ghost.com, ghost.cmd, ghost.bat');
  });
});

describe('expandHome', () => {
  it('expands ~ and ~/ but leaves ~user and inner tildes alone', () => {
    expect(expandHome('~', '/h')).toBe('/h');
    expect(expandHome('~/x', '/h')).toBe('/h/x');
    expect(expandHome('~bob/x', '/h')).toBe('~bob/x');
    expect(expandHome('a/~/b', '/h')).toBe('a/~/b');
    expect(expandHome('~\\x', 'C:\\h', true)).toBe('C:\\h\\x');
  });
});
