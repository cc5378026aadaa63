/**
 * The pairing URL as a QR code for a terminal, so a phone can scan it: the `qrcode` package
 * encodes (byte mode, error correction M), this draws two module rows per text row with half
 * blocks. Colours are explicit (black on white) so the code scans on dark and light themes.
 * @module
 */
import QRCode from 'qrcode';
import { loopbackHostOf, noQrReason } from '../protocol/pairing.js';

/** Light modules around the code; the standard asks 4, scanners read 2 fine on a screen. */
const QUIET_ZONE = 2;

/** The QR's modules: `dark(x, y)` true for a dark module, with the quiet zone included. */
export function qrModules(text: string): { size: number; dark: (x: number, y: number) => boolean } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const inner = modules.size;
  const size = inner + 2 * QUIET_ZONE;
  return {
    size,
    dark: (x, y) => {
      const mx = x - QUIET_ZONE;
      const my = y - QUIET_ZONE;
      return mx >= 0 && my >= 0 && mx < inner && my < inner && modules.data[my * inner + mx] === 1;
    },
  };
}

/**
 * `text` as terminal lines: `▀` top dark, `▄` bottom dark, `█` both, space neither.
 * `color` wraps each line in black-on-white SGR (off for plain text, e.g. a test or a file).
 */
export function renderQrForTerminal(text: string, options: { color?: boolean } = {}): string {
  const { size, dark } = qrModules(text);
  const lines: string[] = [];
  for (let y = 0; y < size; y += 2) {
    let line = '';
    for (let x = 0; x < size; x += 1) {
      const top = dark(x, y);
      const bottom = y + 1 < size && dark(x, y + 1);
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(options.color === false ? line : `\x1b[30;47m${line}\x1b[0m`);
  }
  return lines.join('\n');
}

/**
 * What to show a person for a phone beside a pairing URL: its QR code, or — when the URL's host
 * is this computer's loopback, which no phone can reach — a line that says so (a QR code of
 * `http://127.0.0.1:…` could never work).
 */
export function phonePairingText(url: string, options: { color?: boolean } = {}): { qr: string } | { noQr: string } {
  const loopback = loopbackHostOf(url);
  return loopback !== null ? { noQr: noQrReason(loopback) } : { qr: renderQrForTerminal(url, options) };
}
