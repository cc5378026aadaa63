import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, openSync, ftruncateSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpec, loadSpecFromText, MAX_SPEC_BYTES } from './load-spec.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/specs');
const VALID_SPEC_PATH = join(FIXTURES, 'valid/claude-like.json');
const scratch = mkdtempSync(join(tmpdir(), 'specterm-load-spec-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function writeScratch(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

describe('loadSpec', () => {
  it('loads the reference-style Claude spec without errors', () => {
    const result = loadSpec(VALID_SPEC_PATH);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (result.ok) {
      expect(result.spec.id).toBe('claude-like');
      expect(result.sourcePath).toBe(VALID_SPEC_PATH);
    }
  });

  it('reports a missing file with its path instead of throwing', () => {
    const missing = join(scratch, 'nope.json');
    const result = loadSpec(missing);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]).toContain('Failed to read/parse spec');
      expect(result.errors[0]).toContain('ENOENT');
      expect(result.errors[0]).toContain(missing);
    }
  });

  it('refuses a directory', () => {
    const result = loadSpec(scratch);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toContain('not a regular file');
  });

  it('names line and column of a JSON syntax error', () => {
    const path = writeScratch('bad.json', '{\n  "$schema": "adhdev:cli/spec@4",\n  "id": "x",,\n}\n');
    const result = loadSpec(path);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatch(/invalid JSON at line 3, column 13/);
  });

  it('never quotes the file in a syntax error: /etc/passwd-like text and a token are told by line, column and what was expected', () => {
    for (const [text, at] of [['root:x:0:0:root:/root:/bin/bash\n', 'line 1, column 1'], ['{\n  "a": 1,\n  "b": mysecretvalue-xyz\n}\n', 'line 3, column 8'], ['a1B2c3D4e5F6g7H8i9J0', 'line 1, column 1']] as const) {
      const result = loadSpec(writeScratch('secret.json', text));
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.errors[0]).toContain(`invalid JSON at ${at}: expected a value (an object, array, string, number, true, false or null)`);
      for (const piece of ['root:x', 'mysecret', 'a1B2', 'a1b2']) expect(result.errors[0]!.toLowerCase()).not.toContain(piece.toLowerCase());
    }
  });

  it('names line and column when JSON.parse gives no position (bad literal)', () => {
    const result = loadSpecFromText('{\n  "a": tru\n}', 'mem.json');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toContain('line 2, column 8');
  });

  it('points at the end of the text for truncated JSON', () => {
    const result = loadSpecFromText('{\n  "a": [1, 2', 'mem.json');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toContain('line 2, column 13');
  });

  it('tolerates a UTF-8 byte-order mark', () => {
    const text = readFileSync(VALID_SPEC_PATH, 'utf8');
    const path = writeScratch('bom.json', `\uFEFF${text}`);
    expect(loadSpec(path).ok).toBe(true);
    expect(loadSpecFromText(`\uFEFF${text}`, 'mem.json').ok).toBe(true);
  });

  it('refuses a spec saved as Latin-1, naming the byte offset, line and column of the first bad byte', () => {
    const path = join(FIXTURES, 'encoding/latin1-regex.json');
    const offset = readFileSync(path).indexOf(0xea); // the "ê" of "Prêt", one Latin-1 byte
    const result = loadSpec(path);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toContain(`not valid UTF-8 at byte ${offset} (line 12, column 65)`);
    expect(result.errors[0]).toContain('0xEA');
    expect(result.errors[0]).toContain('save the file as UTF-8');
  });

  it('refuses invalid UTF-8 anywhere (truncated sequence at the end, overlong form, surrogate)', () => {
    const valid = readFileSync(VALID_SPEC_PATH);
    const cases: Array<[string, Buffer, number]> = [
      ['truncated', Buffer.concat([valid, Buffer.from([0xe2, 0x82])]), valid.length],
      ['overlong', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]), 6],
      ['surrogate', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]), 6],
    ];
    for (const [name, bytes, offset] of cases) {
      const path = join(scratch, `${name}.json`);
      writeFileSync(path, bytes);
      const result = loadSpec(path);
      expect(result.ok, name).toBe(false);
      if (!result.ok) expect(result.errors[0], name).toContain(`not valid UTF-8 at byte ${offset}`);
    }
  });

  it('loads multi-byte UTF-8 (CJK, emoji, box drawing) unchanged', () => {
    const spec = JSON.parse(readFileSync(VALID_SPEC_PATH, 'utf8'));
    spec._note = '日本語 🚀 ─╌❯›';
    const path = writeScratch('multibyte.json', JSON.stringify(spec));
    const result = loadSpec(path);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (result.ok) expect((result.spec as unknown as { _note: string })._note).toBe('日本語 🚀 ─╌❯›');
  });

  it('refuses a 50 MB file quickly without reading it', () => {
    const path = join(scratch, 'huge.json');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 50 * 1024 * 1024); // sparse: no 50 MB write needed
    closeSync(fd);
    const started = performance.now();
    const result = loadSpec(path);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toContain(`over the ${MAX_SPEC_BYTES}-byte limit`);
  });

  it('refuses oversized text handed over directly', () => {
    const result = loadSpecFromText(' '.repeat(MAX_SPEC_BYTES + 1), 'mem.json');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toContain('over the');
  });

  it('counts the cap for text handed over in UTF-8 bytes, as for a file (2 M three-byte characters are 6 MB)', () => {
    const text = JSON.stringify({ $schema: 'adhdev:cli/spec@4', _pad: '─'.repeat(2 * 1024 * 1024) });
    expect(text.length).toBeLessThan(MAX_SPEC_BYTES);
    const result = loadSpecFromText(text, 'mem.json');
    expect(result.ok).toBe(false);
    expect(result.issues[0]).toMatchObject({ code: 'SPEC_TOO_LARGE' });
    expect(result.issues[0]!.message).toContain(`over the ${MAX_SPEC_BYTES}-byte limit`);
  });

  it('validates a 4 MB spec (huge doc key) within seconds', () => {
    const spec = JSON.parse(readFileSync(VALID_SPEC_PATH, 'utf8'));
    spec._padding = 'x'.repeat(4 * 1024 * 1024);
    const started = performance.now();
    const result = loadSpecFromText(JSON.stringify(spec), 'mem.json');
    expect(result.ok).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('returns validation errors and warnings for a parsed but invalid spec', () => {
    const result = loadSpecFromText(JSON.stringify({ $schema: 'adhdev:cli/spec@3' }), 'old.json');
    const message = expect.stringContaining('$schema: must be "adhdev:cli/spec@4"');
    expect(result).toEqual({ ok: false, errors: [message], warnings: [], issues: [{ path: '$schema', code: 'SPEC_SCHEMA_MISMATCH', severity: 'error', message }], sourcePath: 'old.json' });
  });

  it('never throws on non-string input', () => {
    expect(loadSpecFromText(42 as unknown as string, 'x').ok).toBe(false);
    expect(loadSpec(undefined as unknown as string).ok).toBe(false);
  });
});

describe('loadSpec issues', () => {
  it('carry a stable code for each failure before validation, with line and column where the file has them', () => {
    const latin1 = loadSpec(join(FIXTURES, 'encoding/latin1-regex.json'));
    expect(latin1.issues).toEqual([expect.objectContaining({ code: 'SPEC_NOT_UTF8', path: 'spec', severity: 'error', line: 12, column: 65 })]);
    const syntax = loadSpecFromText('{\n  "a": tru\n}', 'mem.json');
    expect(syntax.issues).toEqual([expect.objectContaining({ code: 'SPEC_JSON_SYNTAX', line: 2, column: 8 })]);
    expect(loadSpecFromText(' '.repeat(MAX_SPEC_BYTES + 1), 'mem.json').issues[0]?.code).toBe('SPEC_TOO_LARGE');
    expect(loadSpec(join(scratch, 'absent.json')).issues[0]?.code).toBe('SPEC_READ_FAILED');
    expect(loadSpec(scratch).issues[0]?.code).toBe('SPEC_READ_FAILED');
    expect(loadSpecFromText(7 as unknown as string, 'x').issues[0]?.code).toBe('SPEC_NOT_TEXT');
  });

  it('list the validator issues with the messages of errors and warnings', () => {
    const spec = JSON.parse(readFileSync(VALID_SPEC_PATH, 'utf8'));
    spec.transitions[0].to = 'idel';
    spec.stauts = 1;
    const result = loadSpecFromText(JSON.stringify(spec), 'mem.json');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.filter((i) => i.severity === 'error').map((i) => i.message)).toEqual(result.errors);
    expect(result.issues.filter((i) => i.severity === 'warning').map((i) => i.message)).toEqual(result.warnings);
    expect(result.issues).toContainEqual(expect.objectContaining({ code: 'SPEC_UNKNOWN_STATE', path: 'transitions[0].to', severity: 'error' }));
    expect(result.issues).toContainEqual(expect.objectContaining({ code: 'SPEC_UNKNOWN_FIELD', path: 'stauts', severity: 'warning' }));
  });
});

describe('built-in specs (specs/*/spec.json)', () => {
  const specsDir = join(import.meta.dirname, '../../specs');
  const builtIns = readdirSync(specsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(specsDir, d.name, 'spec.json'));

  it.each(builtIns)('%s loads without errors', (path) => {
    const result = loadSpec(path);
    expect(result.ok, JSON.stringify(result)).toBe(true);
  });
});

describe('broken spec corpus (test/fixtures/specs/broken)', () => {
  const dir = join(FIXTURES, 'broken');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

  it('holds at least 40 broken specs', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
  });

  type BrokenDoc = { _expect: string[]; _expect_error_count?: number; _reference_accepts?: boolean };
  const docOf = (file: string): [string, BrokenDoc] => {
    const text = readFileSync(join(dir, file), 'utf8');
    return [text, JSON.parse(text) as BrokenDoc];
  };

  it.each(files)('%s is rejected by strict loading with its expected message', (file) => {
    const [text, doc] = docOf(file);
    const result = loadSpecFromText(text, file, { strict: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    for (const fragment of doc._expect) {
      expect(result.errors.some((e) => e.includes(fragment)), `expected "${fragment}" in:\n${result.errors.join('\n')}`).toBe(true);
    }
    if (doc._expect_error_count !== undefined) expect(result.errors).toHaveLength(doc._expect_error_count);
  });

  it.each(files)('%s loads leniently exactly when the reference accepts it (_reference_accepts), the message then a warning', (file) => {
    const [text, doc] = docOf(file);
    const result = loadSpecFromText(text, file);
    expect(result.ok, result.ok ? '' : result.errors.join('\n')).toBe(doc._reference_accepts === true);
    if (!result.ok) return;
    for (const fragment of doc._expect) {
      const hit = result.issues.find((i) => i.severity === 'warning' && i.strictOnly && i.message.includes(fragment));
      expect(hit, `expected a strict-only warning "${fragment}" in:\n${result.warnings.join('\n')}`).toBeDefined();
    }
  });
});
