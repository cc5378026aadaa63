/**
 * Checking an `attach_image` blob before it becomes a file whose path is typed into the agent.
 * `Buffer.from(s, 'base64')` never throws — it skips what it does not understand — so garbage
 * would be written as an "image". Here the blob must be strict base64, decode to a file of an
 * allowed format (by its signature, not only its mime), and stay under the cap.
 *
 * @module
 */
import type { RefusalCode } from './events.js';

/**
 * Largest decoded image accepted: 10 MiB. Agent CLIs pass images on to model APIs that take a
 * few MB per image (5 MB for Anthropic's); anything past this is not a screenshot.
 */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Formats the agent CLIs accept, with their file extension and how their bytes begin. */
const FORMATS = {
  'image/png': { name: 'PNG', ext: '.png', matches: (b: Buffer) => startsWith(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  'image/jpeg': { name: 'JPEG', ext: '.jpg', matches: (b: Buffer) => startsWith(b, 0, [0xff, 0xd8, 0xff]) },
  'image/gif': { name: 'GIF', ext: '.gif', matches: (b: Buffer) => startsWith(b, 0, ascii('GIF87a')) || startsWith(b, 0, ascii('GIF89a')) },
  'image/webp': { name: 'WebP', ext: '.webp', matches: (b: Buffer) => startsWith(b, 0, ascii('RIFF')) && startsWith(b, 8, ascii('WEBP')) },
} as const;

type ImageMime = keyof typeof FORMATS;

/** The allowed mime types (compared case-insensitively). */
export const IMAGE_MIME_TYPES: readonly ImageMime[] = Object.keys(FORMATS) as ImageMime[];

/** Standard alphabet, groups of four, `=` padding only at the end. */
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type DecodedImage =
  | { ok: true; bytes: Buffer; ext: string }
  | { ok: false; code: Extract<RefusalCode, 'INVALID_IMAGE' | 'IMAGE_TOO_LARGE'>; reason: string };

/** Decodes `blob` as an image of type `mime`, or says why it is not one. */
export function decodeImageBlob(blob: string, mime: string): DecodedImage {
  const key = mime.toLowerCase();
  // Own keys only: "constructor" or "__proto__" must not find Object's members.
  const format = Object.hasOwn(FORMATS, key) ? FORMATS[key as ImageMime] : undefined;
  if (!format) {
    return { ok: false, code: 'INVALID_IMAGE', reason: `attach_image.mime ${JSON.stringify(mime)} is not an allowed image type; use one of ${IMAGE_MIME_TYPES.join(', ')}` };
  }
  // Checked on the text, before decoding: the decoded size is known from the length.
  const decodedBytes = Math.floor((blob.length * 3) / 4);
  if (decodedBytes > MAX_IMAGE_BYTES) {
    return { ok: false, code: 'IMAGE_TOO_LARGE', reason: `attach_image.blob decodes to about ${decodedBytes} bytes, over the ${MAX_IMAGE_BYTES}-byte limit; send a smaller image` };
  }
  if (!STRICT_BASE64.test(blob)) {
    return { ok: false, code: 'INVALID_IMAGE', reason: 'attach_image.blob is not strict base64 (standard alphabet A-Z a-z 0-9 + /, "=" padding to a multiple of 4, no whitespace or line breaks); encode the image bytes with standard base64' };
  }
  const bytes = Buffer.from(blob, 'base64');
  // Set bits after the last whole byte ("iVBORw0KGgp=") decode like their canonical form: refuse
  // them too, so one image has exactly one accepted encoding.
  if (bytes.toString('base64') !== blob) {
    return { ok: false, code: 'INVALID_IMAGE', reason: 'attach_image.blob is not canonical base64 (its last character has unused bits set); encode the image bytes with standard base64' };
  }
  if (bytes.length === 0) return { ok: false, code: 'INVALID_IMAGE', reason: 'attach_image.blob decodes to no bytes (empty base64); send the image data' };
  if (!format.matches(bytes)) {
    return { ok: false, code: 'INVALID_IMAGE', reason: `attach_image.blob is not a ${format.name} image (its bytes do not start with the ${format.name} signature); send the file's bytes and its real mime type` };
  }
  return { ok: true, bytes, ext: format.ext };
}

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

function startsWith(bytes: Buffer, offset: number, prefix: readonly number[]): boolean {
  return bytes.length >= offset + prefix.length && prefix.every((v, i) => bytes[offset + i] === v);
}
