import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPreLaunchTrust, inspectJson, tomlBasicString, type PreLaunchTrustOptions } from './pre-launch-trust.js';

let root: string;
let home: string;
let ws: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-trust-')));
  home = path.join(root, 'home');
  ws = path.join(root, 'work space "q"');
  fs.mkdirSync(home);
  fs.mkdirSync(ws);
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const opts = (over: PreLaunchTrustOptions = {}): PreLaunchTrustOptions => ({ homeDir: home, env: {}, ...over });

/** Files left beside `file` that are not `file` itself (temp files, locks). */
function leftovers(dir: string): string[] {
  return fs.readdirSync(dir).filter((n) => n.endsWith('.tmp') || n.endsWith('.lock'));
}

function write(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.chmodSync(file, mode);
}

describe('array form {settings_path, key}', () => {
  const cfg = { settings_path: '~/.agent/settings.json', key: 'trustedFolders' };
  const file = () => path.join(home, '.agent/settings.json');

  it('creates a missing file (and its parents) with the workspace realpath, mode 0600', () => {
    const r = applyPreLaunchTrust(cfg, ws, opts());
    expect(r).toEqual({ status: 'added', file: file(), path: ws });
    expect(fs.readFileSync(file(), 'utf8')).toBe(JSON.stringify({ trustedFolders: [ws] }, null, 2) + '\n');
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    expect(leftovers(path.dirname(file()))).toEqual([]);
  });

  it('fills a blank file and keeps its mode', () => {
    write(file(), '  \n', 0o640);
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
    expect(JSON.parse(fs.readFileSync(file(), 'utf8'))).toEqual({ trustedFolders: [ws] });
    expect(fs.statSync(file()).mode & 0o777).toBe(0o640);
  });

  it('appends while keeping every other key, the 4-space indentation, the missing final newline and the mode', () => {
    const original = { theme: 'dark', nested: { a: [1, 2.5, null, true] }, trustedFolders: ['/other', 7] };
    write(file(), JSON.stringify(original, null, 4), 0o640);
    const inode = fs.statSync(file()).ino;
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
    const text = fs.readFileSync(file(), 'utf8');
    expect(text).toBe(JSON.stringify({ ...original, trustedFolders: ['/other', 7, ws] }, null, 4));
    expect(fs.statSync(file()).mode & 0o777).toBe(0o640);
    // Atomic replace: a new inode, no temp or lock files left behind.
    expect(fs.statSync(file()).ino).not.toBe(inode);
    expect(leftovers(path.dirname(file()))).toEqual([]);
  });

  it('keeps tab indentation, CRLF line ends and a compact one-line file compact', () => {
    write(file(), '{\r\n\t"a": 1\r\n}\r\n');
    applyPreLaunchTrust(cfg, ws, opts());
    expect(fs.readFileSync(file(), 'utf8')).toBe(JSON.stringify({ a: 1, trustedFolders: [ws] }, null, '\t').replace(/\n/g, '\r\n') + '\r\n');
    write(file(), '{"a":1}');
    applyPreLaunchTrust(cfg, ws, opts());
    expect(fs.readFileSync(file(), 'utf8')).toBe(JSON.stringify({ a: 1, trustedFolders: [ws] }));
  });

  it('reports already and leaves the file byte-identical when the path is present', () => {
    write(file(), `{\n  "trustedFolders": [${JSON.stringify(ws)}]   \n}`);
    const before = fs.statSync(file());
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('already');
    expect(fs.readFileSync(file(), 'utf8')).toBe(`{\n  "trustedFolders": [${JSON.stringify(ws)}]   \n}`);
    expect(fs.statSync(file()).ino).toBe(before.ino);
  });

  it.each([
    ['unparsable JSON', '{\n  "a": 1,\n  "b": \n}', /line 4, column 1/],
    ['a non-object root', '["x"]', /top level is an array/],
    ['a non-array key', '{"trustedFolders": "all"}', /"trustedFolders" is a string/],
    ['a duplicate key', '{"a": 1, "a": 2}', /duplicate key "a"/],
    ['an unsafe integer', '{"id": 12345678901234567890}', /number 12345678901234567890/],
  ])('refuses %s: error naming the file, the file left byte-identical', (_what, text, why) => {
    write(file(), text);
    const r = applyPreLaunchTrust(cfg, ws, opts());
    expect(r.status).toBe('error');
    expect(r.message).toContain(file());
    expect(r.message).toMatch(why);
    expect(r.message).toContain('left untouched');
    expect(fs.readFileSync(file(), 'utf8')).toBe(text);
    expect(leftovers(path.dirname(file()))).toEqual([]);
  });

  it('leaves a read-only settings file as it is and says so, even when the process could replace it', () => {
    write(file(), '{"theme": "dark"}\n', 0o444);
    const r = applyPreLaunchTrust(cfg, ws, opts());
    expect(r.status).toBe('skipped');
    expect(r.message).toContain(file());
    expect(r.message).toMatch(/read-only/);
    expect(fs.readFileSync(file(), 'utf8')).toBe('{"theme": "dark"}\n');
    expect(fs.statSync(file()).mode & 0o777).toBe(0o444);
  });

  it('leaves a settings file that is not valid UTF-8 byte-identical', () => {
    const before = Buffer.concat([Buffer.from('{"name": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]);
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), before);
    const r = applyPreLaunchTrust(cfg, ws, opts());
    expect(r.status).toBe('error');
    expect(r.message).toMatch(/not valid UTF-8/);
    expect(fs.readFileSync(file()).equals(before)).toBe(true);
  });

  it('keeps a byte-order mark and refuses JSON with comments', () => {
    write(file(), '\uFEFF{"a": 1}\n');
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
    expect(fs.readFileSync(file(), 'utf8')).toBe(`\uFEFF${JSON.stringify({ a: 1, trustedFolders: [ws] })}\n`);
    const commented = '{\n  // mine\n  "a": 1\n}\n';
    write(file(), commented);
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('error');
    expect(fs.readFileSync(file(), 'utf8')).toBe(commented);
  });

  it('stores the realpath of a symlinked workspace', () => {
    const link = path.join(root, 'link');
    fs.symlinkSync(ws, link);
    expect(applyPreLaunchTrust(cfg, link, opts()).path).toBe(ws);
    expect(JSON.parse(fs.readFileSync(file(), 'utf8')).trustedFolders).toEqual([ws]);
  });

  it('updates the target of a symlinked settings file and keeps the link', () => {
    const real = path.join(root, 'dotfiles/settings.json');
    write(real, '{"x": 1}\n');
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.symlinkSync(real, file());
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
    expect(fs.lstatSync(file()).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(real, 'utf8'))).toEqual({ x: 1, trustedFolders: [ws] });
  });

  it('rejects a relative settings_path and a malformed config without throwing', () => {
    expect(applyPreLaunchTrust({ settings_path: 'rel/s.json', key: 'k' }, ws, opts()).message).toMatch(/must be absolute/);
    expect(applyPreLaunchTrust({ settings_path: '', key: 'k' }, ws, opts()).status).toBe('error');
    expect(applyPreLaunchTrust(null as never, ws, opts()).status).toBe('skipped');
    expect(applyPreLaunchTrust({ scheme: 'nope' } as never, ws, opts()).message).toMatch(/not supported/);
  });

  it('returns an error instead of throwing when the file cannot be written', () => {
    write(path.join(home, 'blocker'), 'not a dir');
    const r = applyPreLaunchTrust({ settings_path: '~/blocker/s.json', key: 'k' }, ws, opts());
    expect(r.status).toBe('error');
    expect(r.message).toMatch(/left as they were/);
  });

  it('merges with a foreign writer that changes the file between our read and our rename', () => {
    write(file(), '{"trustedFolders": []}\n');
    let raced = false;
    const r = applyPreLaunchTrust(cfg, ws, opts({
      beforeCommit: (f) => {
        if (raced) return;
        raced = true;
        fs.writeFileSync(f, '{"trustedFolders": ["/from-the-cli"], "added": true}\n');
      },
    }));
    expect(r.status).toBe('added');
    expect(JSON.parse(fs.readFileSync(file(), 'utf8'))).toEqual({ trustedFolders: ['/from-the-cli', ws], added: true });
    expect(leftovers(path.dirname(file()))).toEqual([]);
  });

  it('two quick calls for different workspaces keep both entries', () => {
    const other = path.join(root, 'other');
    fs.mkdirSync(other);
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
    expect(applyPreLaunchTrust(cfg, other, opts()).status).toBe('added');
    expect(JSON.parse(fs.readFileSync(file(), 'utf8')).trustedFolders).toEqual([ws, other]);
  });
});

describe('concurrent processes', () => {
  it('lose no entry when several processes add different workspaces to the same files at once', async () => {
    // Transpile the module so plain `node` children can import it (type imports are erased).
    const lib = path.join(root, 'lib');
    fs.mkdirSync(lib);
    fs.writeFileSync(path.join(lib, 'package.json'), '{"type":"module"}');
    // The children resolve the TOML parser from the repository's node_modules.
    fs.symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), path.join(lib, 'node_modules'));
    for (const name of ['pre-launch-trust', 'trust-files', 'trust-json', 'trust-toml', 'find-binary']) {
      const src = fs.readFileSync(new URL(`./${name}.ts`, import.meta.url), 'utf8');
      const out = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
      fs.writeFileSync(path.join(lib, `${name}.js`), out.outputText);
    }
    const worker = path.join(lib, 'worker.mjs');
    fs.writeFileSync(worker, `
      import fs from 'node:fs';
      import path from 'node:path';
      import { applyPreLaunchTrust } from './pre-launch-trust.js';
      const [home, base, id, count] = process.argv.slice(2);
      for (let i = 0; i < Number(count); i++) {
        const ws = path.join(base, id + '-' + i);
        fs.mkdirSync(ws, { recursive: true });
        for (const cfg of [{ settings_path: '~/s.json', key: 'folders' }, { scheme: 'claude_json_projects' }, { scheme: 'codex_toml_file' }]) {
          const r = applyPreLaunchTrust(cfg, ws, { homeDir: home, env: {} });
          if (r.status !== 'added') { console.error(JSON.stringify(r)); process.exit(1); }
        }
      }
    `);
    const workers = 4;
    const perWorker = 15;
    const codes = await Promise.all(Array.from({ length: workers }, (_, w) => new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [worker, home, path.join(root, 'ws'), `w${w}`, String(perWorker)], { stdio: ['ignore', 'ignore', 'inherit'] });
      child.on('exit', (code) => resolve(code ?? -1));
    })));
    expect(codes).toEqual(Array(workers).fill(0));
    const expected = Array.from({ length: workers }, (_, w) => Array.from({ length: perWorker }, (_, i) => path.join(root, 'ws', `w${w}-${i}`))).flat();
    const folders = JSON.parse(fs.readFileSync(path.join(home, 's.json'), 'utf8')).folders as string[];
    expect([...folders].sort()).toEqual([...expected].sort());
    const projects = JSON.parse(fs.readFileSync(path.join(home, '.claude.json'), 'utf8')).projects as Record<string, unknown>;
    expect(Object.keys(projects).sort()).toEqual([...expected].sort());
    const toml = fs.readFileSync(path.join(home, '.codex/config.toml'), 'utf8');
    expect(toml.match(/^\[projects\./gm)).toHaveLength(workers * perWorker);
    expect(Object.keys(parseToml(toml).projects as object).sort()).toEqual([...expected].sort());
    expect(leftovers(home)).toEqual([]);
  }, 60_000);
});

describe('claude_json_projects', () => {
  const cfg = { scheme: 'claude_json_projects' } as const;
  const file = () => path.join(home, '.claude.json');

  it('sets projects[realpath].hasTrustDialogAccepted and keeps everything else', () => {
    const original = {
      numStartups: 12,
      projects: { '/a': { allowedTools: ['x'], hasTrustDialogAccepted: false }, [ws]: { history: [{ display: 'hi' }] } },
      oauthAccount: { email: 'e@x' },
    };
    write(file(), JSON.stringify(original, null, 2) + '\n', 0o600);
    expect(applyPreLaunchTrust(cfg, ws, opts())).toEqual({ status: 'added', file: file(), path: ws });
    expect(JSON.parse(fs.readFileSync(file(), 'utf8'))).toEqual({
      ...original,
      projects: { ...original.projects, [ws]: { history: [{ display: 'hi' }], hasTrustDialogAccepted: true } },
    });
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('already');
  });

  it('creates the file when absent and honours CLAUDE_CONFIG_DIR', () => {
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
    expect(JSON.parse(fs.readFileSync(file(), 'utf8'))).toEqual({ projects: { [ws]: { hasTrustDialogAccepted: true } } });
    const dir = path.join(root, 'claude-cfg');
    const r = applyPreLaunchTrust(cfg, ws, opts({ env: { CLAUDE_CONFIG_DIR: dir } }));
    expect(r.file).toBe(path.join(dir, '.claude.json'));
    expect(fs.existsSync(path.join(dir, '.claude.json'))).toBe(true);
  });

  it('refuses a projects value or entry that is not an object', () => {
    write(file(), '{"projects": []}');
    expect(applyPreLaunchTrust(cfg, ws, opts()).message).toMatch(/"projects" is an array/);
    write(file(), JSON.stringify({ projects: { [ws]: true } }));
    expect(applyPreLaunchTrust(cfg, ws, opts()).message).toMatch(/is a boolean, expected an object/);
    expect(fs.readFileSync(file(), 'utf8')).toBe(JSON.stringify({ projects: { [ws]: true } }));
  });
});

describe('codex_toml_file', () => {
  const cfg = { scheme: 'codex_toml_file' } as const;
  const file = () => path.join(home, '.codex/config.toml');
  const table = () => `[projects.${tomlBasicString(ws)}]\ntrust_level = "trusted"\n`;

  it('creates the file with mode 0600 and reports already on the second call', () => {
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
    expect(fs.readFileSync(file(), 'utf8')).toBe(table());
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('already');
    expect(fs.readFileSync(file(), 'utf8')).toBe(table());
  });

  it('appends without rewriting existing content, and escapes quotes and backslashes in the path', () => {
    const existing = 'model = "o3" # comment\n\n[projects."/a"]\ntrust_level = "trusted"';
    write(file(), existing, 0o644);
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
    const text = fs.readFileSync(file(), 'utf8');
    expect(text).toBe(existing + '\n' + table());
    expect(text).toContain('work space \\"q\\"');
    expect(fs.statSync(file()).mode & 0o777).toBe(0o644);
  });

  it('honours CODEX_HOME', () => {
    const dir = path.join(root, 'codex-home');
    expect(applyPreLaunchTrust(cfg, ws, opts({ env: { CODEX_HOME: dir } })).file).toBe(path.join(dir, 'config.toml'));
    expect(fs.readFileSync(path.join(dir, 'config.toml'), 'utf8')).toBe(table());
  });

  it('never flips an explicit untrusted entry and refuses an inline projects table', () => {
    const untrusted = `[projects.${tomlBasicString(ws)}]\ntrust_level = "untrusted"\n`;
    write(file(), untrusted);
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('skipped');
    expect(fs.readFileSync(file(), 'utf8')).toBe(untrusted);
    write(file(), 'projects = { "/a" = { trust_level = "trusted" } }\n');
    const r = applyPreLaunchTrust(cfg, ws, opts());
    expect(r.status).toBe('error');
    expect(fs.readFileSync(file(), 'utf8')).toBe('projects = { "/a" = { trust_level = "trusted" } }\n');
  });
});

describe('grok_toml_file', () => {
  it('appends a folders table with trusted = true and decided_at from the injected clock', () => {
    const now = () => new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    const r = applyPreLaunchTrust({ scheme: 'grok_toml_file' }, ws, opts({ now }));
    expect(r.status).toBe('added');
    expect(fs.readFileSync(path.join(home, '.grok/config.toml'), 'utf8'))
      .toBe(`[folders.${tomlBasicString(ws)}]\ntrusted = true\ndecided_at = 2025-01-02T03:04:05.000Z\n`);
    expect(applyPreLaunchTrust({ scheme: 'grok_toml_file' }, ws, opts({ now })).status).toBe('already');
  });
});

describe('kimi_workspace_file', () => {
  it('creates one file per workspace named by sha1 of the realpath and never overwrites it', () => {
    const r = applyPreLaunchTrust({ scheme: 'kimi_workspace_file' }, ws, opts());
    const file = path.join(home, '.kimi/workspaces', crypto.createHash('sha1').update(ws).digest('hex') + '.json');
    expect(r).toEqual({ status: 'added', file, path: ws });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ path: ws, trusted: true });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.writeFileSync(file, 'user edited');
    expect(applyPreLaunchTrust({ scheme: 'kimi_workspace_file' }, ws, opts()).status).toBe('already');
    expect(fs.readFileSync(file, 'utf8')).toBe('user edited');
    expect(leftovers(path.dirname(file))).toEqual([]);
  });
});

describe('inspectJson', () => {
  it('accepts valid JSON and locates errors by line and column', () => {
    expect(inspectJson('{"a": [1, -2.5e3, "x\\u00e9\\n", true, false, null, {}]}')).toBeNull();
    expect(inspectJson('{"a": 1,}')).toMatch(/line 1, column 9/);
    expect(inspectJson('{\n"a" 1}')).toMatch(/expected ':' at line 2, column 5/);
    expect(inspectJson('{"a": "b')).toMatch(/unexpected end/);
    expect(inspectJson('{} x')).toMatch(/after the top-level value/);
    expect(inspectJson('[' .repeat(100_000))).toMatch(/nested too deeply|unexpected end/);
  });
});

// One writer serves both CLIs (Qwen Code is a Gemini CLI fork with the same trust store); only where the file lives differs.
describe.each([
  { scheme: 'gemini_trusted_folders', dir: '.gemini' },
  { scheme: 'qwen_trusted_folders', dir: '.qwen' },
] as const)('$scheme', ({ scheme, dir }) => {
  const cfg = { scheme };
  const file = () => path.join(home, dir, 'trustedFolders.json');

  it(`creates ~/${dir}/trustedFolders.json (0600, dir 0700) as an object map with the folder as TRUST_FOLDER`, () => {
    const r = applyPreLaunchTrust(cfg, ws, opts());
    expect(r).toMatchObject({ status: 'added', file: file(), path: ws });
    expect(JSON.parse(fs.readFileSync(file(), 'utf8'))).toEqual({ [ws]: 'TRUST_FOLDER' });
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file())).mode & 0o777).toBe(0o700);
    expect(leftovers(path.dirname(file()))).toEqual([]);
  });

  it('keeps the mode of an existing file it rewrites', () => {
    write(file(), '{"/a": "TRUST_FOLDER"}\n', 0o640);
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
    expect(fs.statSync(file()).mode & 0o777).toBe(0o640);
    expect(JSON.parse(fs.readFileSync(file(), 'utf8'))).toEqual({ '/a': 'TRUST_FOLDER', [ws]: 'TRUST_FOLDER' });
  });

  it('leaves the file as it is when its directory is read-only, and says so', () => {
    const before = '{"/a": "TRUST_FOLDER"}\n';
    write(file(), before);
    fs.chmodSync(path.dirname(file()), 0o500);
    try {
      const r = applyPreLaunchTrust(cfg, ws, opts());
      expect(r.status).toBe('skipped');
      expect(r.message).toContain(`${path.dirname(file())} is read-only`);
      expect(fs.readFileSync(file(), 'utf8')).toBe(before);
      expect(fs.readdirSync(path.dirname(file()))).toEqual(['trustedFolders.json']);
    } finally {
      fs.chmodSync(path.dirname(file()), 0o700);
    }
  });

  it('keeps the other folders and is a no-op the second time', () => {
    write(file(), '{\n    "/elsewhere": "DO_NOT_TRUST",\n    "/x": "TRUST_PARENT"\n}\n');
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
    const text = fs.readFileSync(file(), 'utf8');
    expect(JSON.parse(text)).toEqual({ '/elsewhere': 'DO_NOT_TRUST', '/x': 'TRUST_PARENT', [ws]: 'TRUST_FOLDER' });
    expect(text).toContain('\n    "/x"');
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('already');
    expect(fs.readFileSync(file(), 'utf8')).toBe(text);
  });

  it('treats TRUST_PARENT on the folder as already trusted', () => {
    write(file(), JSON.stringify({ [ws]: 'TRUST_PARENT' }));
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('already');
  });

  it('leaves an explicit DO_NOT_TRUST on the folder or on a parent as it is', () => {
    const before = JSON.stringify({ [ws]: 'DO_NOT_TRUST' });
    write(file(), before);
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('skipped');
    expect(fs.readFileSync(file(), 'utf8')).toBe(before);
    const parent = JSON.stringify({ [path.dirname(ws)]: 'DO_NOT_TRUST' });
    write(file(), parent);
    const r = applyPreLaunchTrust(cfg, ws, opts());
    expect(r.status).toBe('skipped');
    expect(r.message).toContain('DO_NOT_TRUST');
    expect(fs.readFileSync(file(), 'utf8')).toBe(parent);
  });

  it('does not read a sibling whose name starts like a distrusted folder as its child', () => {
    write(file(), JSON.stringify({ [`${ws}-old`]: 'DO_NOT_TRUST' }));
    expect(applyPreLaunchTrust(cfg, ws, opts()).status).toBe('added');
  });

  it('leaves an unparsable file (e.g. with comments) and an array root byte-identical and reports it', () => {
    for (const text of ['{ // trusted\n "/a": "TRUST_FOLDER" }', '["/a"]', '{"/a": ']) {
      write(file(), text);
      const r = applyPreLaunchTrust(cfg, ws, opts());
      expect(r.status).toBe('error');
      expect(r.message).toContain(file());
      expect(fs.readFileSync(file(), 'utf8')).toBe(text);
    }
  });

  it('refuses to overwrite a value the CLI does not know under the folder key', () => {
    write(file(), JSON.stringify({ [ws]: true }));
    const r = applyPreLaunchTrust(cfg, ws, opts());
    expect(r.status).toBe('error');
    expect(JSON.parse(fs.readFileSync(file(), 'utf8'))).toEqual({ [ws]: true });
  });

});

describe('gemini_trusted_folders: where the file lives', () => {
  const cfg = { scheme: 'gemini_trusted_folders' } as const;
  const file = () => path.join(home, '.gemini', 'trustedFolders.json');

  it('honours GEMINI_CLI_HOME and GEMINI_CLI_TRUSTED_FOLDERS_PATH from the child environment', () => {
    const alt = path.join(root, 'gemini-home');
    expect(applyPreLaunchTrust(cfg, ws, opts({ env: { GEMINI_CLI_HOME: alt } })).file).toBe(path.join(alt, '.gemini', 'trustedFolders.json'));
    expect(fs.existsSync(path.join(alt, '.gemini', 'trustedFolders.json'))).toBe(true);
    const explicit = path.join(root, 'elsewhere', 'tf.json');
    expect(applyPreLaunchTrust(cfg, ws, opts({ env: { GEMINI_CLI_HOME: alt, GEMINI_CLI_TRUSTED_FOLDERS_PATH: explicit } })).file).toBe(explicit);
    expect(JSON.parse(fs.readFileSync(explicit, 'utf8'))).toEqual({ [ws]: 'TRUST_FOLDER' });
    expect(fs.existsSync(file())).toBe(false);
  });
});

describe('qwen_trusted_folders: where the file lives', () => {
  const cfg = { scheme: 'qwen_trusted_folders' } as const;

  it('honours QWEN_HOME (the .qwen directory itself, ~ expanded, relative to the working directory) and QWEN_CODE_TRUSTED_FOLDERS_PATH', () => {
    const alt = path.join(root, 'qwen-home');
    expect(applyPreLaunchTrust(cfg, ws, opts({ env: { QWEN_HOME: alt } })).file).toBe(path.join(alt, 'trustedFolders.json'));
    expect(JSON.parse(fs.readFileSync(path.join(alt, 'trustedFolders.json'), 'utf8'))).toEqual({ [ws]: 'TRUST_FOLDER' });
    expect(applyPreLaunchTrust(cfg, ws, opts({ env: { QWEN_HOME: '~/q' } })).file).toBe(path.join(home, 'q', 'trustedFolders.json'));
    expect(applyPreLaunchTrust(cfg, ws, opts({ env: { QWEN_HOME: 'rel' } })).file).toBe(path.join(ws, 'rel', 'trustedFolders.json'));
    const explicit = path.join(root, 'elsewhere', 'tf.json');
    expect(applyPreLaunchTrust(cfg, ws, opts({ env: { QWEN_HOME: alt, QWEN_CODE_TRUSTED_FOLDERS_PATH: explicit } })).file).toBe(explicit);
    expect(fs.existsSync(path.join(home, '.qwen', 'trustedFolders.json'))).toBe(false);
  });
});
