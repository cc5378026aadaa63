import jsQRModule from 'jsqr';
import { describe, expect, it } from 'vitest';
import { phonePairingText, renderQrForTerminal } from './pairing-qr.js';

// jsqr is CommonJS with an `exports.default`: under NodeNext its default import is the module.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof import('jsqr').default;

const URL_FIXED = 'http://127.0.0.1:7391/#pair=q3Yw1m2Hc8bX0Zr4nT6uVg';

/** Reads the half-block text back as pixels (4 per module, dark = black) and decodes it. */
function decode(text: string): string | null {
  const rows = text.split('\n').map((line) => [...line]);
  const width = rows[0]!.length;
  const height = rows.length * 2;
  const scale = 4;
  const pixels = new Uint8ClampedArray(width * scale * height * scale * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const ch = rows[y >> 1]![x];
      const dark = ch === '█' || (y % 2 === 0 ? ch === '▀' : ch === '▄');
      for (let dy = 0; dy < scale; dy += 1) {
        for (let dx = 0; dx < scale; dx += 1) {
          const i = ((y * scale + dy) * width * scale + x * scale + dx) * 4;
          pixels.fill(dark ? 0 : 255, i, i + 3);
          pixels[i + 3] = 255;
        }
      }
    }
  }
  return jsQR(pixels, width * scale, height * scale)?.data ?? null;
}

describe('renderQrForTerminal', () => {
  it('draws a QR code that decodes to the pairing URL', () => {
    expect(decode(renderQrForTerminal(URL_FIXED, { color: false }))).toBe(URL_FIXED);
  });

  it('is stable for a fixed input and differs for another URL', () => {
    const text = renderQrForTerminal(URL_FIXED, { color: false });
    expect(renderQrForTerminal(URL_FIXED, { color: false })).toBe(text);
    expect(renderQrForTerminal(URL_FIXED.replace('q3', 'Q3'), { color: false })).not.toBe(text);
    // Version 4 (33 modules) + 2-module quiet zones: 37 columns, 19 rows of half blocks.
    const lines = text.split('\n');
    expect(lines).toHaveLength(19);
    expect(lines.every((line) => [...line].length === 37 && /^[ ▀▄█]+$/.test(line))).toBe(true);
  });

  it('colours each line black on white for the terminal by default', () => {
    const lines = renderQrForTerminal(URL_FIXED).split('\n');
    expect(lines.every((line) => line.startsWith('\x1b[30;47m') && line.endsWith('\x1b[0m'))).toBe(true);
  });
});

describe('phonePairingText', () => {
  it('draws no QR code for a loopback URL, which no phone can reach, and says so', () => {
    for (const url of ['http://127.0.0.1:7391/#pair=x', 'http://127.4.5.6:1/#pair=x', 'http://localhost:7391/#pair=x', 'http://[::1]:7391/#pair=x']) {
      expect(phonePairingText(url)).toEqual({ noQr: expect.stringMatching(/^no QR code for a phone: the daemon listens only on this computer \(.+:\d+\), which a phone cannot reach$/) });
    }
  });

  it('draws the QR code of a URL a phone can reach', () => {
    const url = 'https://192.168.1.20:7391/#pair=q3Yw1m2Hc8bX0Zr4nT6uVg';
    expect(phonePairingText(url, { color: false })).toEqual({ qr: renderQrForTerminal(url, { color: false }) });
  });
});
