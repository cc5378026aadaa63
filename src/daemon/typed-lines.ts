/**
 * The lines a person types into a session key by key (the dashboard's terminal, `specterm
 * attach`, `keys`): printable characters build the line, Backspace takes one back, Ctrl-U or
 * Ctrl-C drops it, a paste is taken whole, Enter completes it. A line edited with the cursor keys
 * (or anything else that moves within it) is no longer known and is dropped at its Enter rather
 * than guessed. What it is for: a command typed this way (`/clear`) is seen like one sent, and a
 * turn read off the screen knows the person's words.
 * @module
 */

/** Longest line kept: a person's message, not a file pasted into a prompt by mistake. */
const MAX_LINE = 64 * 1024;
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export class TypedLines {
  #line = '';
  /** False once the line was edited in a way this cannot follow. */
  #known = true;
  #pasting = false;

  /** Feeds keystrokes; answers the lines they completed, in order. */
  feed(data: string): string[] {
    const done: string[] = [];
    let i = 0;
    while (i < data.length) {
      if (this.#pasting) {
        const end = data.indexOf(PASTE_END, i);
        this.#append(data.slice(i, end === -1 ? data.length : end));
        if (end === -1) break;
        this.#pasting = false;
        i = end + PASTE_END.length;
        continue;
      }
      if (data.startsWith(PASTE_START, i)) {
        this.#pasting = true;
        i += PASTE_START.length;
        continue;
      }
      const ch = data[i]!;
      const code = ch.charCodeAt(0);
      if (ch === '\r' || ch === '\n') {
        if (this.#known && this.#line.trim() !== '') done.push(this.#line);
        this.#reset();
        i += 1;
      } else if (ch === '\x7f' || ch === '\b') {
        this.#line = this.#line.slice(0, -1);
        i += 1;
      } else if (ch === '\x15' || ch === '\x03') {
        this.#reset(); // Ctrl-U, Ctrl-C: the line is gone
        i += 1;
      } else if (ch === '\x1b') {
        // An escape sequence (a cursor key, a function key): the line may have been edited anywhere.
        const m = /^\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?/.exec(data.slice(i));
        this.#known = false;
        i += m![0].length || 1;
      } else if (code < 0x20) {
        if (ch !== '\t') this.#known = false; // Ctrl-A, Ctrl-W…: an edit this does not follow
        else this.#append(ch);
        i += 1;
      } else {
        this.#append(ch);
        i += 1;
      }
    }
    return done;
  }

  #append(text: string): void {
    this.#line += text;
    if (this.#line.length > MAX_LINE) this.#known = false;
    if (!this.#known) this.#line = this.#line.slice(-MAX_LINE);
  }

  #reset(): void {
    this.#line = '';
    this.#known = true;
  }
}
