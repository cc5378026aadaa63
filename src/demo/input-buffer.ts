/**
 * The input box's text and cursor as an immutable value, with the editing operations the
 * demo supports. Positions are UTF-16 indices that never split a surrogate pair.
 * @module
 */

/** Text plus cursor position (0 … text.length). */
export interface InputBuffer {
  readonly text: string;
  readonly cursor: number;
}

/** An empty buffer. */
export const EMPTY_INPUT: InputBuffer = { text: '', cursor: 0 };

function previousBoundary(text: string, index: number): number {
  if (index <= 0) return 0;
  const low = text.charCodeAt(index - 1);
  return index >= 2 && low >= 0xdc00 && low <= 0xdfff ? index - 2 : index - 1;
}

function nextBoundary(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const high = text.charCodeAt(index);
  return high >= 0xd800 && high <= 0xdbff && index + 1 < text.length ? index + 2 : index + 1;
}

/** Inserts `text` at the cursor (CRLF and CR become LF, so pasted lines stay lines). */
export function insertText(buffer: InputBuffer, text: string): InputBuffer {
  const clean = text.replace(/\r\n?/g, '\n');
  return {
    text: buffer.text.slice(0, buffer.cursor) + clean + buffer.text.slice(buffer.cursor),
    cursor: buffer.cursor + clean.length,
  };
}

/** Deletes the character before the cursor. */
export function deleteBackward(buffer: InputBuffer): InputBuffer {
  const start = previousBoundary(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Deletes the character under the cursor. */
export function deleteForward(buffer: InputBuffer): InputBuffer {
  const end = nextBoundary(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end), cursor: buffer.cursor };
}

/** Deletes the word before the cursor (Ctrl-W). */
export function deleteWordBackward(buffer: InputBuffer): InputBuffer {
  const before = buffer.text.slice(0, buffer.cursor);
  const start = before.replace(/\S+\s*$|\s+$/, '').length;
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Deletes from the start of the current line to the cursor (Ctrl-U). */
export function deleteToLineStart(buffer: InputBuffer): InputBuffer {
  const start = buffer.text.lastIndexOf('\n', buffer.cursor - 1) + 1;
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Deletes from the cursor to the end of the current line (Ctrl-K). */
export function deleteToLineEnd(buffer: InputBuffer): InputBuffer {
  const newline = buffer.text.indexOf('\n', buffer.cursor);
  const end = newline === -1 ? buffer.text.length : newline;
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end), cursor: buffer.cursor };
}

/** Moves the cursor one character left or right. */
export function moveCursor(buffer: InputBuffer, direction: 'left' | 'right'): InputBuffer {
  const cursor = direction === 'left' ? previousBoundary(buffer.text, buffer.cursor) : nextBoundary(buffer.text, buffer.cursor);
  return { text: buffer.text, cursor };
}

/** Moves the cursor to the start or end of the current line. */
export function moveToLineEdge(buffer: InputBuffer, edge: 'start' | 'end'): InputBuffer {
  if (edge === 'start') return { text: buffer.text, cursor: buffer.text.lastIndexOf('\n', buffer.cursor - 1) + 1 };
  const newline = buffer.text.indexOf('\n', buffer.cursor);
  return { text: buffer.text, cursor: newline === -1 ? buffer.text.length : newline };
}
