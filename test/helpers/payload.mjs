/**
 * Deterministic text of an exact UTF-8 size for large-write tests: numbered lines mixing ASCII,
 * 2-, 3- and 4-byte characters, so a chunk boundary inside a character or a reordered chunk
 * shows up as a byte mismatch.
 *
 * @param {number} bytes - UTF-8 length of the result.
 * @returns {string}
 */
export function makePayload(bytes) {
  const parts = [];
  let size = 0;
  for (let line = 0; ; line++) {
    const text = `${String(line).padStart(7, '0')} pasted text äöü — 漢字 😀 end\n`;
    const length = Buffer.byteLength(text, 'utf8');
    if (size + length > bytes) break;
    parts.push(text);
    size += length;
  }
  // Pad with ASCII to the exact size, so no character is cut.
  return parts.join('') + 'x'.repeat(bytes - size);
}

/**
 * A regular expression source matching exactly `makePayload(bytes)`: every line in order (by
 * shape and count) and the padding; a lost, doubled or reordered piece fails it.
 *
 * @param {number} bytes
 * @returns {string}
 */
export function payloadPattern(bytes) {
  const text = makePayload(bytes);
  const lines = text.split('\n');
  const padding = lines.pop();
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const shape = `\\d{7} ${escape(' pasted text äöü — 漢字 😀 end'.slice(1))}\\n`;
  return `^(?:${shape}){${lines.length}}${escape(padding)}$`;
}
