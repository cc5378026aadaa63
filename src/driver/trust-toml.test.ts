import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPreLaunchTrust, tomlBasicString, type PreLaunchTrustOptions } from './pre-launch-trust.js';

// Every TOML form a user may already have written for the project (issue 12, item 3): each must
// be understood as what it means, never get a second [projects."…"] table appended, and an
// explicit "untrusted" / `trusted = false` must be left as the user's decision.

let root: string;
let home: string;
let ws: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-trust-toml-')));
  home = path.join(root, 'home');
  ws = path.join(root, 'ws');
  fs.mkdirSync(home);
  fs.mkdirSync(ws);
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const opts = (over: PreLaunchTrustOptions = {}): PreLaunchTrustOptions => ({ homeDir: home, env: {}, ...over });
const codex = { scheme: 'codex_toml_file' } as const;
const codexFile = () => path.join(home, '.codex/config.toml');
const grokFile = () => path.join(home, '.grok/config.toml');
const q = () => tomlBasicString(ws);

function write(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.chmodSync(file, mode);
}

function leftovers(dir: string): string[] {
  return fs.readdirSync(dir).filter((n) => n.endsWith('.tmp') || n.endsWith('.lock'));
}

describe('codex_toml_file: the project already declared in another valid form', () => {
  it.each([
    ['a table header with inner spaces', () => `[ projects.${q()} ]\ntrust_level = "trusted"\n`],
    ['a table header with spaces around the dot', () => `[projects . ${q()}]\ntrust_level = "trusted"\n`],
    ['a literal-string key', () => `[projects.'${ws}']\ntrust_level = "trusted"\n`],
    ['a dotted key at the top level', () => `model = "o3"\nprojects.${q()}.trust_level = "trusted"\n`],
    ['a dotted key under [projects]', () => `[projects]\n${q()}.trust_level = "trusted"\n`],
    ['an inline table under [projects]', () => `[projects]\n${q()} = { trust_level = "trusted" }\n`],
    ['an inline projects table', () => `projects = { ${q()} = { trust_level = "trusted" } }\n`],
  ])('%s that trusts it: already, the file byte-identical', (_form, text) => {
    write(codexFile(), text());
    const r = applyPreLaunchTrust(codex, ws, opts());
    expect(r.status).toBe('already');
    expect(fs.readFileSync(codexFile(), 'utf8')).toBe(text());
  });

  it.each([
    ['a table header with inner spaces', () => `[ projects.${q()} ]\ntrust_level = "untrusted"\n`],
    ['a dotted key at the top level', () => `projects.${q()}.trust_level = "untrusted"\n`],
    ['a dotted key under [projects]', () => `[projects]\n${q()}.trust_level = "untrusted"\n`],
    ['an inline table under [projects]', () => `[projects]\n${q()} = { trust_level = "untrusted" }\n`],
    ['an inline projects table', () => `projects = { ${q()} = { trust_level = "untrusted" } }\n`],
  ])('%s that says untrusted: skipped as the user\'s decision, the file byte-identical', (_form, text) => {
    write(codexFile(), text());
    const r = applyPreLaunchTrust(codex, ws, opts());
    expect(r.status).toBe('skipped');
    expect(r.message).toContain(codexFile());
    expect(r.message).toMatch(/untrusted/);
    expect(fs.readFileSync(codexFile(), 'utf8')).toBe(text());
  });

  it('appends a table for the project when [projects] holds other projects as inline tables, and the result parses', () => {
    const before = `[projects]\n"/other" = { trust_level = "trusted" }\n`;
    write(codexFile(), before);
    expect(applyPreLaunchTrust(codex, ws, opts()).status).toBe('added');
    const text = fs.readFileSync(codexFile(), 'utf8');
    expect(text.startsWith(before)).toBe(true);
    expect(parse(text)).toEqual({ projects: { '/other': { trust_level: 'trusted' }, [ws]: { trust_level: 'trusted' } } });
  });

  it('adds trust_level inside an existing table for the project that lacks it, keeping its other keys', () => {
    const before = `model = "o3"\n\n[ projects.${q()} ] # mine\nmodel = "gpt-5"\n\n[other]\nx = 1\n`;
    write(codexFile(), before, 0o640);
    expect(applyPreLaunchTrust(codex, ws, opts()).status).toBe('added');
    const text = fs.readFileSync(codexFile(), 'utf8');
    expect(parse(text)).toEqual({ model: 'o3', projects: { [ws]: { model: 'gpt-5', trust_level: 'trusted' } }, other: { x: 1 } });
    // A minimal edit: one line added, every other line kept as written.
    expect(text.split('\n').filter((l) => !before.split('\n').includes(l))).toEqual(['trust_level = "trusted"']);
    expect(fs.statSync(codexFile()).mode & 0o777).toBe(0o640);
  });

  it('refuses an entry it cannot extend safely (an inline table without trust_level) and leaves the file', () => {
    const before = `projects = { ${q()} = { model = "gpt-5" } }\n`;
    write(codexFile(), before);
    const r = applyPreLaunchTrust(codex, ws, opts());
    expect(r.status).toBe('error');
    expect(r.message).toContain(codexFile());
    expect(r.message).toContain('trust_level = "trusted"');
    expect(fs.readFileSync(codexFile(), 'utf8')).toBe(before);
  });

  it('refuses a trust_level it does not know and leaves the file', () => {
    const before = `[projects.${q()}]\ntrust_level = "maybe"\n`;
    write(codexFile(), before);
    const r = applyPreLaunchTrust(codex, ws, opts());
    expect(r.status).toBe('error');
    expect(r.message).toMatch(/"maybe"/);
    expect(fs.readFileSync(codexFile(), 'utf8')).toBe(before);
  });

  it('refuses a projects value that is not a table and leaves the file', () => {
    write(codexFile(), 'projects = "all"\n');
    const r = applyPreLaunchTrust(codex, ws, opts());
    expect(r.status).toBe('error');
    expect(r.message).toMatch(/"projects" is a string/);
    expect(fs.readFileSync(codexFile(), 'utf8')).toBe('projects = "all"\n');
  });
});

describe('codex_toml_file: files it must not touch', () => {
  it('leaves a file that is not valid TOML byte-identical and names the line', () => {
    const before = 'model = "o3"\nthis is not toml\n';
    write(codexFile(), before);
    const r = applyPreLaunchTrust(codex, ws, opts());
    expect(r.status).toBe('error');
    expect(r.message).toContain(codexFile());
    expect(r.message).toMatch(/line 2/);
    expect(r.message).toContain('left untouched');
    expect(fs.readFileSync(codexFile(), 'utf8')).toBe(before);
    expect(leftovers(path.dirname(codexFile()))).toEqual([]);
  });

  it('leaves a file that is not valid UTF-8 byte-identical instead of rewriting its bad bytes as U+FFFD', () => {
    const before = Buffer.concat([Buffer.from('model = "o3"\n# caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    fs.mkdirSync(path.dirname(codexFile()), { recursive: true });
    fs.writeFileSync(codexFile(), before);
    const r = applyPreLaunchTrust(codex, ws, opts());
    expect(r.status).toBe('error');
    expect(r.file).toBe(codexFile());
    expect(r.message).toMatch(/not valid UTF-8.*offset 18/);
    expect(fs.readFileSync(codexFile()).equals(before)).toBe(true);
  });

  it('leaves a read-only file as it is and says so, even when the process could write it', () => {
    const before = 'model = "o3"\n';
    write(codexFile(), before, 0o444);
    const r = applyPreLaunchTrust(codex, ws, opts());
    expect(r.status).toBe('skipped');
    expect(r.message).toMatch(/read-only/);
    expect(fs.readFileSync(codexFile(), 'utf8')).toBe(before);
    expect(fs.statSync(codexFile()).mode & 0o777).toBe(0o444);
  });

  it('writes atomically: a new inode, mode kept, CRLF and a BOM kept, nothing left behind', () => {
    const before = '\uFEFFmodel = "o3"\r\n# last line, no newline';
    write(codexFile(), before, 0o640);
    const inode = fs.statSync(codexFile()).ino;
    expect(applyPreLaunchTrust(codex, ws, opts()).status).toBe('added');
    const text = fs.readFileSync(codexFile(), 'utf8');
    expect(text).toBe(`${before}\r\n[projects.${q()}]\r\ntrust_level = "trusted"\r\n`);
    expect(fs.statSync(codexFile()).ino).not.toBe(inode);
    expect(fs.statSync(codexFile()).mode & 0o777).toBe(0o640);
    expect(leftovers(path.dirname(codexFile()))).toEqual([]);
  });
});

describe('grok_toml_file', () => {
  const grok = { scheme: 'grok_toml_file' } as const;
  const now = () => new Date(Date.UTC(2025, 0, 2, 3, 4, 5));

  it.each([
    ['a dotted key', () => `folders.${q()}.trusted = false\n`],
    ['an inline table under [folders]', () => `[folders]\n${q()} = { trusted = false }\n`],
    ['a spaced header', () => `[ folders . ${q()} ]\ntrusted = false\n`],
  ])('keeps %s that says trusted = false', (_form, text) => {
    write(grokFile(), text());
    expect(applyPreLaunchTrust(grok, ws, opts({ now })).status).toBe('skipped');
    expect(fs.readFileSync(grokFile(), 'utf8')).toBe(text());
  });

  it('reports already for a dotted key that says trusted = true', () => {
    const text = `folders.${q()}.trusted = true\n`;
    write(grokFile(), text);
    expect(applyPreLaunchTrust(grok, ws, opts({ now })).status).toBe('already');
    expect(fs.readFileSync(grokFile(), 'utf8')).toBe(text);
  });
});
