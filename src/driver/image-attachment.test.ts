/**
 * attach_image takes only what is really an image: strict base64 (alphabet, padding, canonical
 * ending), non-empty, under the size cap, an allowed mime, and bytes that start with that image
 * format's signature. Anything else is refused with a code before a file is written or a key typed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeImageBlob, IMAGE_MIME_TYPES, MAX_IMAGE_BYTES } from './image-attachment.js';
import { harness, toIdle } from '../../test/helpers/driver-harness.js';

const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');
const png = (extra = 8): string => Buffer.concat([PNG_SIGNATURE, Buffer.alloc(extra, 7)]).toString('base64');

// Temp files go under os.tmpdir(), which follows TMPDIR: a folder of this test's own shows
// whether a refused image left anything behind.
let tmp = '';
const savedTmpdir = process.env.TMPDIR;
beforeEach(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-image-test-')); process.env.TMPDIR = tmp; });
afterEach(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = savedTmpdir;
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Every file under the test's temp folder. */
function filesWritten(): string[] {
  return fs.readdirSync(tmp, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
}

describe('attach_image validation', () => {
  it.each([
    ['characters outside the base64 alphabet', 'not base64 at all!!'],
    ['a URL-safe alphabet', png(9).replace(/\+/g, '-').replace(/\//g, '_') + '-_'],
    ['a missing padding', png(9).replace(/=+$/, '')],
    ['padding in the middle', 'iVBO=w0KGgo='],
    ['whitespace (a line-wrapped blob)', `${png(40).slice(0, 20)}\n${png(40).slice(20)}`],
    ['a non-canonical last character (unused bits set)', 'iVBORw0KGgp='],
    ['only padding', '===='],
  ])('refuses %s with INVALID_IMAGE and writes nothing', (_what, blob) => {
    const h = harness();
    toIdle(h);
    const writes = h.tx.writes.length;
    const r = h.driver.dispatch({ kind: 'attach_image', blob, mime: 'image/png' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID_IMAGE', reason: expect.stringContaining('base64') });
    expect(h.events.at(-1)).toMatchObject({ kind: 'command_refused', command: 'attach_image', code: 'INVALID_IMAGE' });
    expect(h.tx.writes.length).toBe(writes);
    expect(filesWritten()).toEqual([]);
    h.driver.shutdown();
  });

  it('refuses valid base64 whose bytes are not the image the mime names', () => {
    const h = harness();
    toIdle(h);
    expect(h.driver.dispatch({ kind: 'attach_image', blob: Buffer.from('hello world').toString('base64'), mime: 'image/png' }))
      .toMatchObject({ ok: false, code: 'INVALID_IMAGE', reason: expect.stringContaining('PNG') });
    expect(h.driver.dispatch({ kind: 'attach_image', blob: png(), mime: 'image/jpeg' }))
      .toMatchObject({ ok: false, code: 'INVALID_IMAGE', reason: expect.stringContaining('JPEG') });
  });

  it('refuses a mime outside the allow-list, naming the allowed ones', () => {
    const h = harness();
    toIdle(h);
    const r = h.driver.dispatch({ kind: 'attach_image', blob: png(), mime: 'application/x-sh' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID_IMAGE' });
    for (const mime of IMAGE_MIME_TYPES) expect(r.ok ? '' : r.reason).toContain(mime);
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect(h.driver.dispatch({ kind: 'attach_image', blob: png(), mime: name })).toMatchObject({ ok: false, code: 'INVALID_IMAGE' });
    }
  });

  it('refuses an image over the cap with IMAGE_TOO_LARGE, before decoding it', () => {
    const h = harness();
    toIdle(h);
    const r = h.driver.dispatch({ kind: 'attach_image', blob: png(MAX_IMAGE_BYTES), mime: 'image/png' });
    expect(r).toMatchObject({ ok: false, code: 'IMAGE_TOO_LARGE', reason: expect.stringContaining(String(MAX_IMAGE_BYTES)) });
  });

  it('accepts each allowed format by its signature, mime case-insensitively, and types the file path', () => {
    const samples: Record<string, Buffer> = {
      'image/png': PNG_SIGNATURE,
      'image/jpeg': Buffer.from('ffd8ffe000104a4649460001', 'hex'),
      'image/gif': Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
      'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
    };
    expect(Object.keys(samples).sort()).toEqual([...IMAGE_MIME_TYPES].sort());
    for (const [mime, bytes] of Object.entries(samples)) {
      const d = decodeImageBlob(bytes.toString('base64'), mime.toUpperCase());
      expect(d).toMatchObject({ ok: true });
      expect(d.ok && d.bytes.equals(bytes)).toBe(true);
    }
    const h = harness();
    toIdle(h);
    expect(h.driver.dispatch({ kind: 'attach_image', blob: png(), mime: 'image/png' })).toEqual({ ok: true });
    const file = /^@(.+) $/.exec(h.tx.writes.at(-1)!.data)![1]!;
    expect(path.extname(file)).toBe('.png');
    expect(fs.readFileSync(file).subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(filesWritten()).toHaveLength(1);
    h.driver.shutdown();
  });
});
