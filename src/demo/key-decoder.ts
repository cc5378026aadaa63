/**
 * Turns raw terminal input into key events: printable text, named keys, bracketed pastes
 * and focus reports. Pure and incremental: escape sequences and paste markers may be split
 * across chunks. Focus reports (`ESC[I`/`ESC[O`) are always decoded so they never leak into
 * the input box as text.
 * @module
 */

/** Names of the keys the demo reacts to. */
export type KeyName =
  | 'enter'
  | 'newline'
  | 'backspace'
  | 'delete'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'escape'
  | 'tab'
  | 'shift-tab'
  | 'ctrl-a'
  | 'ctrl-c'
  | 'ctrl-d'
  | 'ctrl-e'
  | 'ctrl-k'
  | 'ctrl-l'
  | 'ctrl-u'
  | 'ctrl-w';

/** One decoded input event. */
export type KeyEvent =
  | { type: 'text'; text: string }
  | { type: 'paste'; text: string }
  | { type: 'key'; name: KeyName }
  | { type: 'focus'; focused: boolean }
  | { type: 'ignored'; sequence: string };

/** An incremental decoder (one per input stream). */
export interface KeyDecoder {
  /** Decodes a chunk; an incomplete trailing sequence is kept for the next chunk. */
  push(chunk: string): KeyEvent[];
  /** True when a lone ESC is pending: call {@link KeyDecoder.flush} after a short pause. */
  hasPending(): boolean;
  /** Resolves a pending lone ESC as the Escape key (terminals send Escape as a bare `ESC`). */
  flush(): KeyEvent[];
}

const ESC = '\u001b';
const PASTE_START = `${ESC}[200~`;
const PASTE_END = `${ESC}[201~`;

const CONTROL_KEYS: Record<string, KeyName> = {
  '\r': 'enter',
  '\n': 'newline',
  '\u007f': 'backspace',
  '\b': 'backspace',
  '\t': 'tab',
  '\u0001': 'ctrl-a',
  '\u0003': 'ctrl-c',
  '\u0004': 'ctrl-d',
  '\u0005': 'ctrl-e',
  '\u000b': 'ctrl-k',
  '\u000c': 'ctrl-l',
  '\u0015': 'ctrl-u',
  '\u0017': 'ctrl-w',
};

const CSI_FINAL_KEYS: Record<string, KeyName> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', Z: 'shift-tab' };
const TILDE_KEYS: Record<string, KeyName> = { '1': 'home', '7': 'home', '4': 'end', '8': 'end', '3': 'delete' };

type Parsed = { events: KeyEvent[]; next: number } | 'pending';

/** Parses the escape sequence starting at `i` (where `input[i]` is ESC). */
function parseEscape(input: string, i: number): Parsed {
  const kind = input[i + 1];
  if (kind === undefined) return 'pending';
  if (kind === '[') {
    let j = i + 2;
    while (j < input.length && /[0-9;?<=>]/.test(input[j])) j++;
    if (j >= input.length) return 'pending';
    const params = input.slice(i + 2, j);
    const final = input[j];
    const sequence = input.slice(i, j + 1);
    if (final === 'I' && params === '') return { events: [{ type: 'focus', focused: true }], next: j + 1 };
    if (final === 'O' && params === '') return { events: [{ type: 'focus', focused: false }], next: j + 1 };
    if (final === '~') {
      const name = TILDE_KEYS[params.split(';')[0]];
      return { events: [name ? { type: 'key', name } : { type: 'ignored', sequence }], next: j + 1 };
    }
    const name = CSI_FINAL_KEYS[final];
    return { events: [name ? { type: 'key', name } : { type: 'ignored', sequence }], next: j + 1 };
  }
  if (kind === 'O') {
    const final = input[i + 2];
    if (final === undefined) return 'pending';
    const name = CSI_FINAL_KEYS[final];
    const sequence = input.slice(i, i + 3);
    return { events: [name ? { type: 'key', name } : { type: 'ignored', sequence }], next: i + 3 };
  }
  if (kind === ESC) {
    // ESC ESC: the first is a real Escape press, the second starts whatever follows.
    return { events: [{ type: 'key', name: 'escape' }], next: i + 1 };
  }
  // Alt+<char>: not used by the demo; swallow it rather than typing the char.
  const width = (input.codePointAt(i + 1) ?? 0) > 0xffff ? 2 : 1;
  return { events: [{ type: 'ignored', sequence: input.slice(i, i + 1 + width) }], next: i + 1 + width };
}

/** Length of the longest suffix of `text` that is a proper prefix of `marker`. */
function partialMarkerLength(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (marker.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}

/** Creates an incremental decoder. */
export function createKeyDecoder(): KeyDecoder {
  let pending = '';
  let paste: string | null = null;
  // A CR at the very end of a chunk may be followed by the LF of a CRLF in the next chunk.
  let lastWasCr = false;

  function decode(input: string): KeyEvent[] {
    const events: KeyEvent[] = [];
    let text = '';
    const flushText = (): void => {
      if (text !== '') events.push({ type: 'text', text });
      text = '';
    };
    let i = 0;
    while (i < input.length) {
      if (paste !== null) {
        const end = input.indexOf(PASTE_END, i);
        if (end === -1) {
          const rest = input.slice(i);
          const keep = partialMarkerLength(rest, PASTE_END);
          paste += rest.slice(0, rest.length - keep);
          pending = rest.slice(rest.length - keep);
          return events;
        }
        paste += input.slice(i, end);
        events.push({ type: 'paste', text: paste });
        paste = null;
        i = end + PASTE_END.length;
        continue;
      }
      const ch = input[i];
      if (ch === ESC) {
        flushText();
        if (input.startsWith(PASTE_START, i)) {
          paste = '';
          i += PASTE_START.length;
          continue;
        }
        // A split paste marker (`ESC[20` + `0~`) parses as an incomplete CSI: kept as pending.
        const parsed = parseEscape(input, i);
        if (parsed === 'pending') {
          pending = input.slice(i);
          return events;
        }
        events.push(...parsed.events);
        i = parsed.next;
        lastWasCr = false;
        continue;
      }
      if (ch === '\n' && lastWasCr) {
        lastWasCr = false;
        i++;
        continue;
      }
      lastWasCr = ch === '\r';
      const name = CONTROL_KEYS[ch];
      if (name !== undefined) {
        flushText();
        events.push({ type: 'key', name });
      } else if (ch < ' ') {
        flushText();
        events.push({ type: 'ignored', sequence: ch });
      } else {
        text += ch;
      }
      i++;
    }
    flushText();
    return events;
  }

  return {
    push(chunk: string): KeyEvent[] {
      const input = pending + chunk;
      pending = '';
      return decode(input);
    },
    hasPending(): boolean {
      return paste === null && pending.startsWith(ESC);
    },
    flush(): KeyEvent[] {
      if (paste !== null || !pending.startsWith(ESC)) return [];
      const rest = pending.slice(1);
      pending = '';
      return [{ type: 'key', name: 'escape' }, ...decode(rest)];
    },
  };
}
