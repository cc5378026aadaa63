/**
 * The one-row status bar of `specterm run`: what it says (pure text) and how it is kept on the
 * user's terminal (a scroll region that leaves the last row to us, redrawn after the child's
 * output and re-applied when the child's output resets it).
 *
 * @module
 */
import type { ModalView, StateView } from '../driver/events.js';

const ESC = '\x1b';
/** Save / restore cursor (DECSC / DECRC): the position, attributes and origin mode. */
const SAVE = `${ESC}7`;
const RESTORE = `${ESC}8`;

/** What the bar shows. */
export interface StatusBarContent {
  state: StateView | null;
  modal: ModalView | null;
  /** The spec's id, shown on the right. */
  specId: string;
  /** A transient message (spec reloaded, spec error …) shown instead of the modal summary. */
  message?: string | null;
}

/** Display width of one code point: 2 for the wide East Asian ranges and emoji, else 1. */
function charWidth(cp: number): number {
  if (cp < 0x1100) return 1;
  const wide = (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3)
    || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60)
    || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x3fffd);
  return wide ? 2 : 1;
}

/** Fits `text` into exactly `width` columns: cut with `…` or padded with spaces. */
export function fitToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  const clean = text.replace(/[\x00-\x1f\x7f]/g, ' ');
  let out = '';
  let used = 0;
  const chars = Array.from(clean);
  const total = chars.reduce((n, c) => n + charWidth(c.codePointAt(0)!), 0);
  if (total <= width) return clean + ' '.repeat(width - total);
  for (const c of chars) {
    const w = charWidth(c.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += c;
    used += w;
  }
  return `${out}…${' '.repeat(Math.max(0, width - used - 1))}`;
}

/** `❯1 Yes · 2 Yes, and don't ask again… · 3 No`: which key answers which button, and where the CLI's cursor is. */
export function describeModalKeys(modal: ModalView, maxLabel = 28): string {
  return modal.buttons
    .map((b) => {
      const label = Array.from(b.label);
      return `${b.current ? '❯' : ''}${b.index} ${label.length > maxLabel ? `${label.slice(0, maxLabel - 1).join('')}…` : b.label}`;
    })
    .join(' · ');
}

/** The bar's text, exactly `cols` columns wide (no escape sequences). */
export function renderStatusText(c: StatusBarContent, cols: number): string {
  const right = ` ${c.specId} `;
  let left: string;
  if (!c.state) {
    left = ' ◌ starting…';
  } else {
    const icon = c.state.status === 'generating' ? '●' : c.state.status === 'approval' || c.state.status === 'waiting_external' ? '◆' : '○';
    left = ` ${icon} ${c.state.label} · ${c.state.status}${c.state.background ? ` · ${c.state.background.what}` : ''}`;
    if (c.message) {
      left += ` │ ${c.message}`;
    } else if (c.modal) {
      const title = c.modal.title ?? c.state.title ?? c.state.label;
      left += ` │ ${title}: ${describeModalKeys(c.modal)}`;
    } else if (c.state.title) {
      left += ` │ ${c.state.title}`;
    }
  }
  if (cols <= right.length + 10) return fitToWidth(left, cols);
  return fitToWidth(left, cols - right.length) + right;
}

/**
 * Sequences in the child's output that reset the scroll region (ours included): `ESC[r`,
 * a region reaching past the child's last row, alternate-screen switches (1049/1047/47),
 * full reset (RIS) and soft reset (DECSTR).
 */
const RESETS_REGION = /\x1b\[(?:(\d*)(?:;(\d*))?r|\?(?:1049|1047|47)[hl]|!p)|\x1bc/g;

/**
 * Keeps the status bar on the user's terminal. Writes only through `write`; the caller forwards
 * the child's output through {@link StatusBarScreen.childOutput} so resets are noticed.
 */
export class StatusBarScreen {
  readonly #write: (data: string) => void;
  #cols: number;
  #rows: number;
  #content: StatusBarContent;
  /** The end of the previous chunk, so a reset split across two chunks is still seen. */
  #tail = '';
  #altScreen = false;
  #active = false;

  /**
   * @param write - writes to the user's terminal.
   * @param cols - terminal width.
   * @param rows - terminal height (the child gets `rows - 1`).
   */
  constructor(write: (data: string) => void, cols: number, rows: number, content: StatusBarContent) {
    this.#write = write;
    this.#cols = cols;
    this.#rows = rows;
    this.#content = content;
  }

  /** Rows the child may use. */
  get childRows(): number {
    return Math.max(1, this.#rows - 1);
  }

  /** Whether the child switched to the alternate screen (and has not switched back). */
  get altScreen(): boolean {
    return this.#altScreen;
  }

  /**
   * Reserves the last row: makes sure the cursor is not on it (a line feed scrolls the user's
   * screen up if needed), sets the scroll region and draws the bar.
   */
  install(): void {
    this.#active = true;
    // LF then up: if the cursor sat on the last row the screen scrolls one line, else it comes back.
    this.#write('\n\x1b[1A');
    this.#applyRegion();
    this.draw();
  }

  /** Updates the content and redraws. */
  update(content: StatusBarContent): void {
    this.#content = content;
    this.draw();
  }

  /** New terminal size: re-reserve the last row and redraw. */
  resize(cols: number, rows: number): void {
    this.#cols = cols;
    this.#rows = rows;
    if (!this.#active) return;
    this.#applyRegion();
    this.draw();
  }

  /**
   * Inspects child output that was just forwarded; when it reset the scroll region, re-applies
   * ours. Returns true when the bar needs a redraw soon (any output may have erased it).
   */
  childOutput(chunk: string): boolean {
    const text = this.#tail + chunk;
    this.#tail = text.slice(-16);
    let reset = false;
    RESETS_REGION.lastIndex = 0;
    for (let m = RESETS_REGION.exec(text); m; m = RESETS_REGION.exec(text)) {
      const seq = m[0];
      if (seq.endsWith('r')) {
        const bottom = m[2] === undefined || m[2] === '' ? Infinity : Number(m[2]);
        if (bottom > this.childRows) reset = true;
      } else {
        if (/\?(?:1049|1047|47)h/.test(seq)) this.#altScreen = true;
        if (/\?(?:1049|1047|47)l/.test(seq)) this.#altScreen = false;
        reset = true;
      }
    }
    // Only the part after the last match may still be an incomplete sequence.
    if (reset && this.#active) this.#applyRegion();
    return this.#active;
  }

  /** Draws the bar on the last row without moving the child's cursor. */
  draw(): void {
    if (!this.#active) return;
    const text = renderStatusText(this.#content, this.#cols);
    this.#write(`${SAVE}\x1b[${this.#rows};1H\x1b[0m\x1b[7m${text}\x1b[0m${RESTORE}`);
  }

  /**
   * Gives the whole screen back: full scroll region, bar row cleared, cursor where the child
   * left it, and the modes a TUI may have left on switched off. Idempotent.
   */
  uninstall(): void {
    if (!this.#active) return;
    this.#active = false;
    const leaveAlt = this.#altScreen ? '\x1b[?1049l' : '';
    this.#write(
      `${leaveAlt}${SAVE}\x1b[r${RESTORE}${SAVE}\x1b[${this.#rows};1H\x1b[0m\x1b[2K${RESTORE}` +
        // Show the cursor; bracketed paste, focus reporting and mouse reporting off.
        '\x1b[0m\x1b[?25h\x1b[?2004l\x1b[?1004l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l',
    );
  }

  #applyRegion(): void {
    // DECSTBM homes the cursor: save and restore around it.
    this.#write(`${SAVE}\x1b[1;${this.childRows}r${RESTORE}`);
  }
}
